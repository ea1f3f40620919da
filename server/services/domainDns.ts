import { Resolver } from 'node:dns/promises';
import type { TFunction } from 'i18next';
import { createI18n } from '../../i18n';
import { verificationRecordName } from '../../src/domain/deployments/customDomain';
import type { Config } from '../config';

/**
 * A custom domain's DNS records, looked up for real (node:dns, at DNS_SERVERS when set): the TXT
 * record `_beacon-verify.<domain>` carrying the server's token, and the domain pointed at the
 * server's default address, by a CNAME to it or (at a domain's apex, where a CNAME cannot be) by
 * A/AAAA records with its addresses. What was found is said against what was expected.
 */

/** Why DNS gave no answer (a lookup worth trying again), as opposed to answering that there is nothing. */
export type NoAnswer = 'timeout' | 'servfail' | 'refused' | 'failed';
type Answer = { records: string[] } | { error: NoAnswer };

/** One record as found: `found` is null when DNS did not answer (`noAnswer` says why). */
export interface RecordFinding {
  type: 'TXT' | 'CNAME' | 'A/AAAA';
  name: string;
  found: string[] | null;
  noAnswer?: NoAnswer;
  /** The token, or the default address the domain must point at. */
  expected: string;
  /** For A/AAAA records: the default address's own addresses. */
  addresses?: string[];
  ok: boolean;
}

export interface DomainRecordsCheck {
  ok: boolean;
  /** Every record wrong was unanswered rather than found wrong: a later lookup may find it right. */
  unanswered: boolean;
  findings: RecordFinding[];
}

const NO_DATA = new Set(['ENODATA', 'ENOTFOUND', 'ENONAME', 'NOTFOUND', 'NODATA']);
const NO_ANSWER: Record<string, NoAnswer> = { ETIMEOUT: 'timeout', ESERVFAIL: 'servfail', EREFUSED: 'refused', ECONNREFUSED: 'refused' };

/** A name as DNS answers it, compared without case or the root's trailing dot. */
const bare = (name: string) => name.toLowerCase().replace(/\.$/, '');

/**
 * Lookups through one resolver for one check: each gives up after DNS_TIMEOUT_MS, and `close`
 * cancels what is still in flight.
 */
function lookups(config: Pick<Config, 'DNS_SERVERS' | 'DNS_TIMEOUT_MS'>) {
  const resolver = new Resolver({ timeout: Math.ceil(config.DNS_TIMEOUT_MS / 2), tries: 2 });
  if (config.DNS_SERVERS) resolver.setServers(config.DNS_SERVERS.split(',').map((s) => s.trim()));
  const ask = async (query: () => Promise<string[]>): Promise<Answer> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Answer>((resolve) => {
      timer = setTimeout(() => resolve({ error: 'timeout' }), config.DNS_TIMEOUT_MS);
    });
    const asked = query().then(
      (records): Answer => ({ records }),
      (err: NodeJS.ErrnoException): Answer => (NO_DATA.has(err.code ?? '') ? { records: [] } : { error: NO_ANSWER[err.code ?? ''] ?? 'failed' }),
    );
    try {
      return await Promise.race([asked, late]);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    txt: (name: string) => ask(async () => (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''))),
    cname: (name: string) => ask(async () => (await resolver.resolveCname(name)).map(bare)),
    /** A and AAAA together: nothing only when both are empty; no answer when either gave none. */
    async addresses(name: string): Promise<Answer> {
      const [v4, v6] = await Promise.all([ask(() => resolver.resolve4(name)), ask(() => resolver.resolve6(name))]);
      if ('error' in v4) return v4;
      if ('error' in v6) return v6;
      return { records: [...v4.records, ...v6.records] };
    },
    close: () => resolver.cancel(),
  };
}

const found = (a: Answer) => ('records' in a ? a.records : null);
const noAnswer = (a: Answer) => ('error' in a ? { noAnswer: a.error } : {});

/** Looks up the domain's records and says, record by record, what was found against what was expected. */
export async function checkDomainRecords(config: Pick<Config, 'DNS_SERVERS' | 'DNS_TIMEOUT_MS'>, { domain, token, target }: { domain: string; token: string; target: string }): Promise<DomainRecordsCheck> {
  const dns = lookups(config);
  try {
    const txtName = verificationRecordName(domain);
    const [txt, cname] = await Promise.all([dns.txt(txtName), dns.cname(domain)]);
    const findings: RecordFinding[] = [{ type: 'TXT', name: txtName, found: found(txt), ...noAnswer(txt), expected: token, ok: found(txt)?.some((r) => r.trim() === token) ?? false }];
    const targets = found(cname);
    if (targets === null || targets.length > 0) {
      findings.push({ type: 'CNAME', name: domain, found: targets, ...noAnswer(cname), expected: target, ok: targets?.includes(bare(target)) ?? false });
    } else {
      // No CNAME: the domain's own A/AAAA records count when they are the default address's.
      const [own, edge] = await Promise.all([dns.addresses(domain), dns.addresses(target)]);
      const mine = found(own);
      const theirs = found(edge) ?? [];
      const ok = mine !== null && mine.length > 0 && mine.every((a) => theirs.includes(a));
      findings.push({ type: mine === null || mine.length > 0 ? 'A/AAAA' : 'CNAME', name: domain, found: mine, ...noAnswer(own), expected: target, addresses: theirs, ok });
    }
    const wrong = findings.filter((f) => !f.ok);
    return { ok: wrong.length === 0, unanswered: wrong.length > 0 && wrong.every((f) => f.found === null), findings };
  } finally {
    dns.close();
  }
}

/** What the check found against what was expected: a line per record that is not right. */
export function describeDomainCheck(check: DomainRecordsCheck, t: TFunction): string {
  const list = (xs: readonly string[]) => xs.map((x) => `"${x}"`).join(', ');
  return check.findings
    .filter((f) => !f.ok)
    .map((f) => {
      const vars = { type: f.type, name: f.name, expected: f.expected };
      if (f.found === null) return t('dnsCheck.unanswered', { ...vars, reason: t(`dnsCheck.reason.${f.noAnswer ?? 'failed'}`) });
      if (f.type === 'TXT') return f.found.length ? t('dnsCheck.txtWrong', { ...vars, found: list(f.found) }) : t('dnsCheck.txtMissing', vars);
      if (f.type === 'CNAME') return f.found.length ? t('dnsCheck.cnameWrong', { ...vars, found: f.found.join(', ') }) : t('dnsCheck.pointMissing', vars);
      return t('dnsCheck.addressesWrong', { ...vars, found: f.found.join(', '), addresses: f.addresses?.length ? f.addresses.join(', ') : t('dnsCheck.noAddresses') });
    })
    .join('\n');
}

let english: { product: string; t: TFunction } | undefined;
/** The server's strings, for a task (the worker's tasks have no translator of their own). */
export function serverT(productName: string): TFunction {
  if (english?.product !== productName) english = { product: productName, t: createI18n(productName).t };
  return english.t;
}
