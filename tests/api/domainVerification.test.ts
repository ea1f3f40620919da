import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n';
import { createScheduledJobs } from '../../server/jobs/scheduled';
import { checkDomainRecords } from '../../server/services/domainDns';
import { DOMAIN_RECHECK_GRACE_DAYS } from '../../src/domain/deployments/customDomain';
import type { DeploymentPopulated } from '../../src/domain/deployments/schemas';
import { startDnsServer, type FakeDns } from '../support/dnsServer';
import { freePort } from '../support/net';
import { companyOwner, loadCatalogue, orderBody, pay, postOrder, STARTER, type Catalogue } from '../support/orders';
import { api, FAST_SERVERS, populated, queuedJobs, settledIn, timeline, until } from '../support/servers';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

/**
 * A custom domain verified for real: its records looked up in DNS (a small DNS server here, the
 * customer's provider), refused at once with what was found against what was expected, verified
 * once right; the daily re-check mails the admins when the records go and, after the grace
 * period, stops serving the domain; and the names refused before anything is stored.
 */

const DAY = 86_400_000;
const SUFFIX = 'servers.test';

let dns: FakeDns;
let t: TestApp;
let cat: Catalogue;
let owner: Awaited<ReturnType<typeof companyOwner>>;
let jobs: ReturnType<typeof createScheduledJobs>;
// The schedule's clock: moved day by day.
let clock = Date.now();

beforeAll(async () => {
  dns = await startDnsServer();
  t = await createTestApp({ ...FAST_SERVERS, DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '1000', SERVER_DOMAIN_SUFFIX: SUFFIX, PUBLIC_URL: 'http://portal.beacon.test' });
  cat = await loadCatalogue(t.app);
  owner = await companyOwner(t.app, 'domain-owner@example.com');
  const { app } = t;
  jobs = createScheduledJobs({ services: app.schedules, config: app.config, providers: app.providers, payments: app.payments.gateway, health: app.serverHealth, mailing: { mailer: app.mailer, t: createI18n(app.config.PRODUCT_NAME).t, publicUrl: app.config.publicUrl }, log: app.log, now: () => new Date(clock) });
}, 60_000);
afterAll(async () => {
  await t.close();
  await dns.close();
});

/** A paid server with the custom-domain option, running. */
async function customDomainServer(name: string) {
  const planConfig = { region: cat.region('us-central1'), size: cat.size('mau_500'), features: [cat.feature('domain.custom'), cat.feature('retention.6m'), cat.feature('backup.daily')] };
  const res = await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: STARTER, name, planConfig }));
  expect(res.statusCode).toBe(201);
  const id = res.json().payload._id as string;
  expect((await pay(t.app, owner.cookie, id)).statusCode).toBe(200);
  return settledIn(t.app, owner.cookie, id, 'running');
}

const act = (id: string, action: string, payload: Record<string, unknown> = {}) => api(t.app, owner.cookie, 'POST', `/deployments/${id}/${action}`, payload);

/** Sets the domain and waits for its update; answers the records the page tells the customer to add. */
async function setDomain(server: DeploymentPopulated, domain: string) {
  const res = await act(server._id, 'update-domain', { domain });
  expect(res.statusCode).toBe(200);
  await settledIn(t.app, owner.cookie, server._id, 'running');
  const records = (res.json().payload.deployment as DeploymentPopulated).domain?.verification ?? [];
  const txt = records.find((r) => r.type === 'TXT');
  const cname = records.find((r) => r.type === 'CNAME');
  if (!txt || !cname) throw new Error('no records to add');
  return { txt, cname };
}

/** Asks for the verification and waits for its task to end; answers the server then and the task. */
async function verify(id: string) {
  expect((await act(id, 'verify-domain')).statusCode).toBe(200);
  const server = await settledIn(t.app, owner.cookie, id, 'running');
  const task = (await timeline(t.app, owner.cookie, id)).tasks.find((x) => x.type === 'verify_domain');
  if (!task) throw new Error('no verification task');
  return { server, task };
}

const mails = (subject: string) => t.app.database.rows<{ to: string; subject: string; text: string }>(`select "to", subject, text from mail_outbox where subject like '%${subject}%' order by created_at`);

describe('verifying a custom domain', () => {
  it('refuses at once, saying what was found and what was expected, until the records are right', async () => {
    const server = await customDomainServer('Shop Server');
    const target = server.domain?.name ?? '';
    expect(target.endsWith(`.${SUFFIX}`)).toBe(true);
    const { txt, cname } = await setDomain(server, 'Shop.test');
    expect(txt).toEqual({ type: 'TXT', host: '_beacon-verify.shop.test', value: expect.stringMatching(/^beacon-verify=[0-9a-f]{32}$/) });
    expect(cname).toEqual({ type: 'CNAME', host: 'shop.test', value: target });

    // Nothing published yet: failed on its first attempt, with both records named.
    const none = await verify(server._id);
    expect(none.task).toMatchObject({ status: 'failed', attempts: 1 });
    const nothing = `TXT _beacon-verify.shop.test: found nothing; expected "${txt.value}".\nCNAME shop.test: found nothing (nor A/AAAA records); expected a CNAME to ${target}.`;
    expect(none.task.lastError).toBe(nothing);
    expect(none.server.domain).toMatchObject({ verified: false, check: { state: 'failed', findings: nothing, stopsAt: null } });
    expect((await timeline(t.app, owner.cookie, server._id)).events).toContainEqual(expect.objectContaining({ kind: 'task_failed', taskType: 'verify_domain', message: nothing }));

    // Published wrong: an old token, a CNAME elsewhere.
    dns.set('_beacon-verify.shop.test', 'TXT', ['beacon-verify=old']);
    dns.set('shop.test', 'CNAME', ['elsewhere.example']);
    const wrong = await verify(server._id);
    expect(wrong.task.lastError).toBe(`TXT _beacon-verify.shop.test: found "beacon-verify=old"; expected "${txt.value}".\nCNAME shop.test → elsewhere.example; expected ${target}.`);

    // The TXT right, the CNAME still wrong: only what is wrong is said.
    dns.set('_beacon-verify.shop.test', 'TXT', ['some-other=record', txt.value]);
    expect((await verify(server._id)).task.lastError).toBe(`CNAME shop.test → elsewhere.example; expected ${target}.`);

    // Both right: verified, its certificate issued, served at the domain.
    dns.set('shop.test', 'CNAME', [`${target}.`]);
    const done = await verify(server._id);
    expect(done.task).toMatchObject({ status: 'completed', lastError: null });
    expect(done.server.domain).toMatchObject({ name: 'shop.test', verified: true, verifiedAt: expect.any(String), ssl: 'active', check: null });
    expect(done.server.url).toBe('https://shop.test');
  });

  it('takes A/AAAA records with the default address’s own addresses where a CNAME cannot be', async () => {
    const server = await customDomainServer('Apex Server');
    const target = server.domain?.name ?? '';
    const { txt } = await setDomain(server, 'apex-shop.test');
    dns.set(target, 'A', ['192.0.2.10']);
    dns.set(target, 'AAAA', ['2001:db8::10']);
    dns.set('_beacon-verify.apex-shop.test', 'TXT', [txt.value]);
    dns.set('apex-shop.test', 'A', ['198.51.100.7']);
    expect((await verify(server._id)).task.lastError).toBe(`A/AAAA apex-shop.test: found 198.51.100.7; expected a CNAME to ${target}, or its addresses (192.0.2.10, 2001:db8::10).`);
    dns.set('apex-shop.test', 'A', ['192.0.2.10']);
    dns.set('apex-shop.test', 'AAAA', ['2001:db8::10']);
    expect((await verify(server._id)).server.domain).toMatchObject({ verified: true });
  });

  it('counts a DNS that does not answer as unanswered (the task retries) rather than as records missing', async () => {
    const silent = `127.0.0.1:${await freePort()}`;
    const check = await checkDomainRecords({ DNS_SERVERS: silent, DNS_TIMEOUT_MS: 500 }, { domain: 'shop.test', token: 'beacon-verify=x', target: 'x.servers.test' });
    expect(check).toMatchObject({ ok: false, unanswered: true });
    expect(check.findings.every((f) => f.found === null && f.noAnswer)).toBe(true);
  });
});

describe('the daily re-check of a verified domain', () => {
  it('mails the admins when the records go, clears it when they come back, and stops serving the domain after the grace period', { timeout: 60_000 }, async () => {
    const server = await customDomainServer('Rechecked Server');
    const target = server.domain?.name ?? '';
    const { txt } = await setDomain(server, 'rechecked.test');
    dns.set('_beacon-verify.rechecked.test', 'TXT', [txt.value]);
    dns.set('rechecked.test', 'CNAME', [target]);
    expect((await verify(server._id)).server.domain).toMatchObject({ verified: true });
    const events = async () => (await timeline(t.app, owner.cookie, server._id)).events.filter((e) => e.kind.startsWith('domain_')).map((e) => e.kind);
    const run = () => jobs['domain-rechecks']();

    // Records in place: nothing to say.
    clock = Date.now() + DAY;
    expect(await run()).toBe(0);
    expect(await events()).toEqual([]);

    // The records go: the timeline says what was found, the admins learn when the domain stops.
    dns.remove('rechecked.test');
    dns.remove('_beacon-verify.rechecked.test');
    clock += DAY;
    const firstMissing = clock;
    expect(await run()).toBe(1);
    const findings = `TXT _beacon-verify.rechecked.test: found nothing; expected "${txt.value}".\nCNAME rechecked.test: found nothing (nor A/AAAA records); expected a CNAME to ${target}.`;
    const stopsAt = new Date(firstMissing + DOMAIN_RECHECK_GRACE_DAYS * DAY).toISOString();
    expect((await populated(t.app, owner.cookie, server._id)).domain).toMatchObject({ verified: true, check: { state: 'missing', at: new Date(firstMissing).toISOString(), findings, stopsAt } });
    const [missingMail, ...more] = await mails('lost its DNS records');
    expect(more).toEqual([]);
    expect(missingMail).toMatchObject({ to: 'domain-owner@example.com' });
    expect(missingMail?.text).toContain(findings);
    expect(missingMail?.text).toContain('The domain is still served until');
    expect(missingMail?.text).toContain(`/deployments/${server._id}`);

    // Still gone the next day: within the grace period, nothing new.
    clock += DAY;
    expect(await run()).toBe(0);
    expect(await mails('lost its DNS records')).toHaveLength(1);

    // Back: cleared; no stop.
    dns.set('_beacon-verify.rechecked.test', 'TXT', [txt.value]);
    dns.set('rechecked.test', 'CNAME', [target]);
    clock += DAY;
    expect(await run()).toBe(0);
    expect(await events()).toEqual(['domain_records_restored', 'domain_records_missing']);
    expect((await populated(t.app, owner.cookie, server._id)).domain).toMatchObject({ verified: true, check: null });

    // Gone again, and for longer than the grace period: no longer verified, so no longer served.
    dns.remove('rechecked.test');
    clock += DAY;
    const since = clock;
    expect(await run()).toBe(1);
    expect(await mails('lost its DNS records')).toHaveLength(2);
    clock += DOMAIN_RECHECK_GRACE_DAYS * DAY - 60_000;
    expect(await run()).toBe(0);
    clock += 60_000;
    expect(await run()).toBe(1);
    const stopped = await populated(t.app, owner.cookie, server._id);
    expect(stopped.domain).toMatchObject({ name: 'rechecked.test', verified: false, verifiedAt: null, ssl: 'pending', check: { state: 'stopped', findings: `CNAME rechecked.test: found nothing (nor A/AAAA records); expected a CNAME to ${target}.` } });
    expect(await events()).toEqual(['domain_unverified', 'domain_records_missing', 'domain_records_restored', 'domain_records_missing']);
    const [stopMail] = await mails('no longer served');
    expect(stopMail?.text).toContain('rechecked.test');
    const audit = await t.app.database.rows<{ after: { missingSince: string } }>(`select after from audit_logs where action = 'deployment.domainUnverified' and target_id = '${server._id}'`);
    expect(audit).toEqual([{ after: expect.objectContaining({ verifiedAt: null, missingSince: new Date(since).toISOString() }) }]);
    t.app.serverHosts.forget();
    expect(await t.app.serverHosts.resolve('rechecked.test')).toEqual({ kind: 'unknown' });

    // No longer verified: no longer re-checked; verified again once the records are back.
    clock += DAY;
    expect(await run()).toBe(0);
    dns.set('rechecked.test', 'CNAME', [target]);
    const again = await verify(server._id);
    expect(again.server.domain).toMatchObject({ verified: true, ssl: 'active', check: null });
  });
});

describe('a domain refused before anything is stored', () => {
  let server: DeploymentPopulated;
  let other: DeploymentPopulated;
  beforeAll(async () => {
    [server, other] = await Promise.all([customDomainServer('Refusing Server'), customDomainServer('Other Server')]);
    await setDomain(other, 'taken.test');
  }, 60_000);

  const cases: [string, string, number, string, string][] = [
    ['an IPv4 address', '192.0.2.1', 400, 'DOMAIN_IS_IP', '192.0.2.1 is an IP address'],
    ['an IPv4 address in a short form', '127.1', 400, 'DOMAIN_IS_IP', 'is an IP address'],
    ['an IPv6 address', '2001:db8::1', 400, 'DOMAIN_IS_IP', 'is an IP address'],
    ['an IPv6 address in brackets', '[2001:db8::1]', 400, 'DOMAIN_IS_IP', 'is an IP address'],
    ['a Unicode name', 'Bücher.de', 400, 'DOMAIN_NOT_IDNA', 'xn--bcher-kva.de instead of bücher.de'],
    ['a name longer than 253 characters', `${'a'.repeat(63)}.`.repeat(4) + 'test', 400, 'DOMAIN_TOO_LONG', 'at most 253 characters; this one has 260'],
    ['not a domain', 'not a domain', 400, 'DOMAIN_INVALID', 'Enter a domain such as'],
    ['an empty name', '', 400, 'DOMAIN_INVALID', 'Enter a domain such as'],
    ['a bad IDNA label', 'xn--zz.test', 400, 'DOMAIN_INVALID', 'Enter a domain such as'],
    ['a public suffix', 'co.uk', 400, 'DOMAIN_PUBLIC_SUFFIX', 'co.uk is a public suffix'],
    ['a private public suffix', 'github.io', 400, 'DOMAIN_PUBLIC_SUFFIX', 'github.io is a public suffix'],
    ['the portal’s host', 'portal.beacon.test', 400, 'DOMAIN_RESERVED', 'one of Beacon’s own addresses'],
    ['a name under the servers’ suffix', `shop.${SUFFIX}`, 400, 'DOMAIN_RESERVED', 'one of Beacon’s own addresses'],
    ['the servers’ suffix itself', SUFFIX, 400, 'DOMAIN_RESERVED', 'one of Beacon’s own addresses'],
    ['another server’s domain', 'Taken.test', 409, 'DOMAIN_TAKEN', 'taken.test is already the custom domain of another server'],
  ];
  it.each(cases)('refuses %s', async (_case, domain, status, code, message) => {
    const before = await tableCounts(t.app);
    const jobsBefore = await queuedJobs(t.app);
    const res = await act(server._id, 'update-domain', { domain });
    expect([res.statusCode, res.json().code]).toEqual([status, code]);
    expect(res.json().message).toContain(message);
    expect(await tableCounts(t.app)).toEqual(before);
    expect(await queuedJobs(t.app)).toBe(jobsBefore);
    expect((await populated(t.app, owner.cookie, server._id)).domain).toMatchObject({ custom: false });
  });

  it('frees a domain its server gave up', async () => {
    expect((await act(other._id, 'update-domain', { domain: null })).statusCode).toBe(200);
    await settledIn(t.app, owner.cookie, other._id, 'running');
    expect((await act(server._id, 'update-domain', { domain: 'taken.test' })).statusCode).toBe(200);
    await until(async () => ((await populated(t.app, owner.cookie, server._id)).domain?.name === 'taken.test' ? true : null));
    await settledIn(t.app, owner.cookie, server._id, 'running');
  });
});
