import { describe, expect, it } from 'vitest';
import { customDomainIssue, domainStopsAt, DOMAIN_RECHECK_GRACE_DAYS, verificationRecordName } from './customDomain';

describe('a custom domain’s name', () => {
  it.each(['shop.test', 'analytics.example.com', 'a-b.c-d.example.co.uk', 'xn--bcher-kva.de', 'ab.de'])('takes %s', (name) => {
    expect(customDomainIssue(name)).toBeNull();
  });

  it.each([
    ['192.0.2.1', 'DOMAIN_IS_IP'],
    ['127.1', 'DOMAIN_IS_IP'],
    ['0x7f.0.0.1', 'DOMAIN_IS_IP'],
    ['2130706433', 'DOMAIN_IS_IP'],
    ['2001:db8::1', 'DOMAIN_IS_IP'],
    ['[::1]', 'DOMAIN_IS_IP'],
    ['::ffff:192.0.2.1', 'DOMAIN_IS_IP'],
    ['', 'DOMAIN_INVALID'],
    ['not a domain', 'DOMAIN_INVALID'],
    ['shop', 'DOMAIN_INVALID'],
    ['shop.test.', 'DOMAIN_INVALID'],
    ['shop.test:8080', 'DOMAIN_INVALID'],
    ['under_score.test', 'DOMAIN_INVALID'],
    ['-dash.test', 'DOMAIN_INVALID'],
    ['xn--zz.test', 'DOMAIN_INVALID'],
    ['1.2.3.4.5', 'DOMAIN_INVALID'],
    ['shop.t3st', 'DOMAIN_INVALID'],
    [`${'a'.repeat(63)}.`.repeat(4) + 'test', 'DOMAIN_TOO_LONG'],
  ])('refuses %j with %s', (name, code) => {
    expect(customDomainIssue(name)?.code).toBe(code);
  });

  it('gives the ASCII form of a Unicode name', () => {
    expect(customDomainIssue('bücher.de')).toEqual({ code: 'DOMAIN_NOT_IDNA', params: { domain: 'bücher.de', ascii: 'xn--bcher-kva.de' } });
    expect(customDomainIssue('ｓｈｏｐ.test')).toEqual({ code: 'DOMAIN_NOT_IDNA', params: { domain: 'ｓｈｏｐ.test', ascii: 'shop.test' } });
    expect(customDomainIssue('b☃.de')).toEqual({ code: 'DOMAIN_NOT_IDNA', params: { domain: 'b☃.de', ascii: 'xn--b-1xp.de' } });
  });

  it('names its TXT record and the day it stops being served', () => {
    expect(verificationRecordName('shop.test')).toBe('_beacon-verify.shop.test');
    expect(domainStopsAt(new Date('2026-03-01T04:30:00Z')).toISOString()).toBe(new Date(Date.parse('2026-03-01T04:30:00Z') + DOMAIN_RECHECK_GRACE_DAYS * 86_400_000).toISOString());
  });
});
