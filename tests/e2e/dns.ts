import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { RecordType, Zone } from '../support/dnsServer';

/**
 * Publishes DNS records at the DNS server globalSetup started for the product (DNS_SERVERS), as a
 * customer's DNS provider would: its zone is a JSON file it reads at each query. Written aside,
 * then renamed, so it never reads half a file.
 */
export function publishDns(records: readonly { type: RecordType; host: string; value: string }[]) {
  const file = process.env.DNS_ZONE_FILE;
  if (!file) throw new Error('DNS_ZONE_FILE is not set: globalSetup starts the DNS server');
  let zone: Zone = {};
  try {
    zone = JSON.parse(readFileSync(file, 'utf8')) as Zone;
  } catch {
    // No zone yet.
  }
  for (const r of records) zone[r.host.toLowerCase()] = { ...zone[r.host.toLowerCase()], [r.type]: [r.value] };
  writeFileSync(`${file}.part`, JSON.stringify(zone));
  renameSync(`${file}.part`, file);
}
