import { DOMAIN_PATTERN } from './schemas';

/**
 * A server's custom domain: what a name must be (SPEC §5's domain rule and more), the DNS records
 * that prove and point it, and how long it is served once those records are gone. Both sides read
 * it: the domain form says the same refusals as the API.
 */

/** The longest name DNS carries (RFC 1035), dots included. */
export const CUSTOM_DOMAIN_MAX_LENGTH = 253;

/**
 * A verified domain whose records are found missing by the daily re-check is still served this
 * many days (the company's admins are mailed at once); records back within it change nothing.
 */
export const DOMAIN_RECHECK_GRACE_DAYS = 3;

/** The TXT record that proves ownership sits at `_beacon-verify.<domain>` and carries the server's token. */
export const VERIFICATION_RECORD_LABEL = '_beacon-verify';
export const verificationRecordName = (domain: string) => `${VERIFICATION_RECORD_LABEL}.${domain}`;

/** When a domain whose records went missing at `failingSince` stops being served, unless they come back. */
export const domainStopsAt = (failingSince: Date): Date => new Date(failingSince.getTime() + DOMAIN_RECHECK_GRACE_DAYS * 86_400_000);

/** A refusal of the name itself: an error code of the error table and its message's parameters. */
export interface CustomDomainIssue {
  code: 'DOMAIN_INVALID' | 'DOMAIN_TOO_LONG' | 'DOMAIN_IS_IP' | 'DOMAIN_NOT_IDNA';
  params: Record<string, string>;
}

/** The host a URL parser makes of the name (IDNA to ASCII, IPv4 forms to dotted quads), or null if none. */
function parsedHost(name: string): string | null {
  try {
    return new URL(`http://${name}`).hostname;
  } catch {
    return null;
  }
}

const isIpv6 = (name: string) => name.includes(':') && parsedHost(`[${name.replace(/^\[|\]$/g, '')}]`) !== null;
// The URL parser reads 127.1, 0x7f.0.0.1 and 2130706433 as 127.0.0.1: all of them are addresses.
const isIpv4 = (name: string) => /^\d+\.\d+\.\d+\.\d+$/.test(parsedHost(name) ?? '');

/**
 * What is wrong with a custom domain as typed (trimmed and lower-cased), or null: longer than DNS
 * allows, an IP address, not in IDNA form (the ASCII `xn--` form is given), or not a domain by
 * SPEC's rule. The server refuses further what only it can know (services/customDomains.ts).
 */
export function customDomainIssue(name: string): CustomDomainIssue | null {
  if (name.length > CUSTOM_DOMAIN_MAX_LENGTH) return { code: 'DOMAIN_TOO_LONG', params: { max: String(CUSTOM_DOMAIN_MAX_LENGTH), length: String(name.length) } };
  if (isIpv6(name) || isIpv4(name)) return { code: 'DOMAIN_IS_IP', params: { domain: name } };
  const host = parsedHost(name);
  if (/[\u0080-\uffff]/.test(name)) return host && DOMAIN_PATTERN.test(host) ? { code: 'DOMAIN_NOT_IDNA', params: { domain: name, ascii: host } } : { code: 'DOMAIN_INVALID', params: { domain: name } };
  // An `xn--` label that is no valid IDNA encoding fails the parser.
  if (host !== name || !DOMAIN_PATTERN.test(name)) return { code: 'DOMAIN_INVALID', params: { domain: name } };
  return null;
}
