import { readFileSync } from 'node:fs';
import dns2 from 'dns2';

const { Packet } = dns2;

/** Records by name, then by type: the zone a test publishes. */
export type Zone = Record<string, Partial<Record<RecordType, string[]>>>;
export type RecordType = 'A' | 'AAAA' | 'CNAME' | 'TXT';

const TYPES: Record<number, RecordType> = { [Packet.TYPE.A]: 'A', [Packet.TYPE.AAAA]: 'AAAA', [Packet.TYPE.CNAME]: 'CNAME', [Packet.TYPE.TXT]: 'TXT' };
const NXDOMAIN = 3;

export interface FakeDns {
  /** `127.0.0.1:<port>`, for DNS_SERVERS. */
  server: string;
  /** Replaces a name's records of one type (an empty list removes them). */
  set(name: string, type: RecordType, values: string[]): void;
  /** Removes every record of a name. */
  remove(name: string): void;
  close(): Promise<void>;
}

/** An answer's record of the right shape for dns2. */
function resource(name: string, type: RecordType, value: string) {
  const base = { name, type: Packet.TYPE[type], class: Packet.CLASS.IN, ttl: 1 };
  return new Packet.Resource(type === 'CNAME' ? { ...base, domain: value } : type === 'TXT' ? { ...base, data: value } : { ...base, address: value });
}

/**
 * A small authoritative DNS server on loopback (UDP, a free port) answering from a zone the test
 * changes as it goes, as a customer's DNS provider would: a name it does not know answers NXDOMAIN,
 * a known name without the type asked an empty answer, and a CNAME is followed for other types as
 * a recursive resolver does. With `zoneFile`, the zone is read from that JSON file at each query
 * (another process, a browser test, writes it).
 */
export async function startDnsServer({ zoneFile }: { zoneFile?: string } = {}): Promise<FakeDns> {
  const own = new Map<string, Partial<Record<RecordType, string[]>>>();
  const zone = (): Zone => {
    if (!zoneFile) return Object.fromEntries(own);
    try {
      return JSON.parse(readFileSync(zoneFile, 'utf8')) as Zone;
    } catch {
      return {};
    }
  };
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const type = question ? TYPES[question.type] : undefined;
      const records = zone();
      let name = question?.name.toLowerCase() ?? '';
      if (!question || !type || !records[name]) {
        if (!records[name]) response.header.rcode = NXDOMAIN;
        send(response);
        return;
      }
      // Follow CNAMEs for the other types (a few hops at most).
      for (let hop = 0; hop < 5 && type !== 'CNAME'; hop += 1) {
        const alias = records[name]?.CNAME?.[0];
        if (!alias) break;
        response.answers.push(resource(name, 'CNAME', alias));
        name = alias.toLowerCase();
      }
      for (const value of records[name]?.[type] ?? []) response.answers.push(resource(name, type, value));
      send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = server.addresses().udp?.port;
  if (!port) throw new Error('the DNS server did not get a port');
  return {
    server: `127.0.0.1:${port}`,
    set(name, type, values) {
      const records = { ...own.get(name.toLowerCase()), [type]: values };
      const kept = Object.entries(records).filter(([, v]) => v.length > 0);
      if (kept.length) own.set(name.toLowerCase(), Object.fromEntries(kept));
      else own.delete(name.toLowerCase());
    },
    remove(name) {
      own.delete(name.toLowerCase());
    },
    close: () => server.close(),
  };
}
