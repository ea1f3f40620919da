import { createServer as createTcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEdgeService, handshakeProbe, type CertificateProbe } from '../../server/services/edge';
import { EDGE_ASKS_PER_MINUTE } from '../../server/routes/edge';
import { createMembers } from '../../server/services/companies';
import { adminCookie, call } from '../support/admin';
import { freePort } from '../support/net';
import { companyOwner, FREE, loadCatalogue, orderBody, pay, postOrder, STARTER, type Catalogue } from '../support/orders';
import { api, FAST_SERVERS, settledIn } from '../support/servers';
import { createTestApp, type TestApp } from '../support/testApp';

/**
 * The TLS edge's ask (GET /api/v1/edge/ask?domain=): which names Caddy may obtain a certificate
 * for, who may ask, and the server page's certificate state read from the edge.
 */
let t: TestApp;
let cat: Catalogue;
let owner: Awaited<ReturnType<typeof companyOwner>>;
/** Names by case: filled in beforeAll from the servers ordered there. */
const names: Record<string, string> = {};

const ask = (domain: string, options: { ip?: string; token?: string; headers?: Record<string, string> } = {}) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/edge/ask?domain=${encodeURIComponent(domain)}${options.token === undefined ? '' : `&token=${encodeURIComponent(options.token)}`}`,
    remoteAddress: options.ip ?? '127.0.0.1',
    headers: options.headers,
  });

const sql = (text: string) => t.app.database.rows(text);

async function running(name: string, custom: boolean) {
  const planConfig = custom ? { region: cat.region('us-central1'), size: cat.size('mau_500'), features: [cat.feature('domain.custom'), cat.feature('retention.6m'), cat.feature('backup.daily')] } : undefined;
  const res = await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: custom ? STARTER : FREE, name, ...(planConfig ? { planConfig } : {}) }));
  expect(res.statusCode).toBe(201);
  const id = res.json().payload._id as string;
  if (custom) expect((await pay(t.app, owner.cookie, id)).statusCode).toBe(200);
  const server = await settledIn(t.app, owner.cookie, id, 'running');
  return { id, name: server.domain?.name ?? '' };
}

/** Sets a custom domain through the API (the record to publish is made), then marks it verified as a found record would. */
async function customDomain(id: string, domain: string, verified: boolean) {
  expect((await api(t.app, owner.cookie, 'POST', `/deployments/${id}/update-domain`, { domain })).statusCode).toBe(200);
  await settledIn(t.app, owner.cookie, id, 'running');
  if (verified) await sql(`update deployment_runtime set domain_verified_at = now() where deployment_id = '${id}'`);
}

beforeAll(async () => {
  // TRUST_PROXY: the edge in front sets X-Forwarded-For; a client reaching the ask through it is itself, not the edge.
  t = await createTestApp({ ...FAST_SERVERS, TRUST_PROXY: '1' });
  cat = await loadCatalogue(t.app);
  owner = await companyOwner(t.app, 'edge-owner@example.com');

  const free = await running('Edge Free', false);
  names.freeDefault = free.name;
  const own = await running('Edge Own Domain', true);
  names.ownDefault = own.name;
  names.ownCustom = 'analytics.shop.test';
  await customDomain(own.id, names.ownCustom, true);
  const pending = await running('Edge Pending', true);
  names.pendingDefault = pending.name;
  names.pendingCustom = 'unverified.shop.test';
  await customDomain(pending.id, names.pendingCustom, false);
  // A verified domain on a server whose options lack one (the option dropped by a change of plan).
  const lapsed = await running('Edge Lapsed', false);
  names.lapsedDefault = lapsed.name;
  names.lapsedCustom = 'lapsed.shop.test';
  await sql(`update deployment_runtime set custom_domain = '${names.lapsedCustom}', domain_verified_at = now() where deployment_id = '${lapsed.id}'`);
  // removeSSL: plain http only, no certificate for any of its names.
  const plain = await running('Edge Plain', true);
  names.plainDefault = plain.name;
  names.plainCustom = 'plain.shop.test';
  await customDomain(plain.id, names.plainCustom, true);
  expect((await t.app.inject({ method: 'POST', url: `/api/v1/deployments/${plain.id}/update-domain?removeSSL=true`, headers: { cookie: owner.cookie }, payload: {} })).statusCode).toBe(200);
  await settledIn(t.app, owner.cookie, plain.id, 'running');
  const gone = await running('Edge Deleted', false);
  names.deletedDefault = gone.name;
  await sql(`update deployments set status = 'deleted' where id = '${gone.id}'`);
  // Ordered, not yet provisioned: no address, no dashboard.
  const waiting = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: STARTER, name: 'Edge Unpaid' }))).json().payload._id as string;
  names.unpaidDefault = `unpaid-${waiting.slice(0, 8)}.servers.beacon.localhost`;
  await sql(`insert into deployment_runtime (deployment_id, default_domain) values ('${waiting}', '${names.unpaidDefault}') on conflict (deployment_id) do update set default_domain = excluded.default_domain`);
  t.app.serverHosts.forget();
}, 120_000);
afterAll(() => t.close());

describe('the ask', () => {
  // [case, name (a key of `names` or a literal), status]
  const cases: [string, string, 200 | 404][] = [
    ["a live server's default address", 'freeDefault', 200],
    ['the same name in capitals, with a trailing dot', 'FREEDEFAULT.', 200],
    ["the default address of a server with a verified custom domain", 'ownDefault', 200],
    ['a verified custom domain of a server whose options include one', 'ownCustom', 200],
    ['a custom domain not verified yet', 'pendingCustom', 404],
    ["that server's default address", 'pendingDefault', 200],
    ['a verified custom domain whose server lost the custom-domain option', 'lapsedCustom', 404],
    ["that server's default address", 'lapsedDefault', 200],
    ['the default address of a server that removed SSL', 'plainDefault', 404],
    ['the verified custom domain of a server that removed SSL', 'plainCustom', 404],
    ['a deleted server', 'deletedDefault', 404],
    ['a server ordered but not provisioned', 'unpaidDefault', 404],
    ['a name no server has', 'nobody.shop.test', 404],
    ['a subdomain of a served name', 'x.analytics.shop.test', 404],
    ["the portal's own host", 'localhost', 404],
    ['an IP address', '127.0.0.1', 404],
  ];
  it.each(cases)('%s: %s → %i', async (_case, key, status) => {
    const domain = key === 'FREEDEFAULT.' ? `${names.freeDefault?.toUpperCase()}.` : (names[key] ?? key);
    const res = await ask(domain);
    expect(res.statusCode, res.body).toBe(status);
    if (status === 200) expect(res.json()).toEqual({ message: 'OK', payload: { domain: domain.toLowerCase().replace(/\.$/, '') } });
    else expect(res.json().code).toBe('EDGE_NAME_NOT_SERVED');
  });

  it('answers only the edge: loopback, not a client reaching it through the edge nor another address', async () => {
    const domain = names.freeDefault ?? '';
    expect((await ask(domain, { ip: '127.0.0.1' })).statusCode).toBe(200);
    expect((await ask(domain, { ip: '::1' })).statusCode).toBe(200);
    expect((await ask(domain, { ip: '::ffff:127.0.0.1' })).statusCode).toBe(200);
    const outsider = await ask(domain, { ip: '203.0.113.7' });
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json().code).toBe('EDGE_ONLY');
    // Through the edge (TRUST_PROXY=1): the client's own address, as the edge forwards it.
    expect((await ask(domain, { headers: { 'x-forwarded-for': '198.51.100.4' } })).json().code).toBe('EDGE_ONLY');
    // Refused before the name is looked at: an outsider learns nothing of which names are served.
    expect((await ask('nobody.shop.test', { ip: '203.0.113.7' })).json().code).toBe('EDGE_ONLY');
  });

  it('refuses a bad query with the validation envelope', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/edge/ask', remoteAddress: '127.0.0.1' })).json().code).toBe('VALIDATION_FAILED');
    expect((await ask('a'.repeat(254))).json().code).toBe('VALIDATION_FAILED');
  });

  it('is rate-limited per caller', async () => {
    // Another loopback address: its own bucket, so the other cases keep theirs.
    const ip = '127.0.0.9';
    for (let i = 0; i < EDGE_ASKS_PER_MINUTE; i += 1) expect((await ask('nobody.shop.test', { ip })).statusCode).toBe(404);
    const over = await ask(names.freeDefault ?? '', { ip });
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('RATE_LIMITED');
  });
});

describe('who may ask, by configuration', () => {
  const edgeWith = (config: { EDGE_ADDRESSES?: string[]; EDGE_ASK_TOKEN?: string }) => createEdgeService({ db: t.app.database.db, members: createMembers({ db: t.app.database.db, changes: t.app.database.changes }), config, hosts: t.app.serverHosts });
  const code = (p: Promise<unknown>) => p.then(() => 'OK', (e: { code?: string }) => e.code);

  it.each<[string, { EDGE_ADDRESSES?: string[]; EDGE_ASK_TOKEN?: string }, { ip: string; token?: string }, string]>([
    ['loopback, no token set', {}, { ip: '127.0.0.1' }, 'OK'],
    ['an edge on another host, listed by address', { EDGE_ADDRESSES: ['10.1.2.3'] }, { ip: '10.1.2.3' }, 'OK'],
    ['an edge on another host, in a listed range', { EDGE_ADDRESSES: ['10.1.0.0/16', 'fd00::/8'] }, { ip: 'fd00::5' }, 'OK'],
    ['an address outside the list', { EDGE_ADDRESSES: ['10.1.0.0/16'] }, { ip: '10.2.0.1' }, 'EDGE_ONLY'],
    ['the token set and given', { EDGE_ASK_TOKEN: 'edge-token-0123456789' }, { ip: '127.0.0.1', token: 'edge-token-0123456789' }, 'OK'],
    ['the token set, not given', { EDGE_ASK_TOKEN: 'edge-token-0123456789' }, { ip: '127.0.0.1' }, 'EDGE_ONLY'],
    ['the token set, a wrong one given', { EDGE_ASK_TOKEN: 'edge-token-0123456789' }, { ip: '127.0.0.1', token: 'edge-token-012345678' }, 'EDGE_ONLY'],
    ['the right token from an address not the edge', { EDGE_ASK_TOKEN: 'edge-token-0123456789' }, { ip: '203.0.113.7', token: 'edge-token-0123456789' }, 'EDGE_ONLY'],
  ])('%s → %s', async (_case, config, client, expected) => {
    expect(await code(edgeWith(config).ask(client, names.freeDefault ?? ''))).toBe(expected);
  });
});

describe("the server page's certificate state", () => {
  let admin: string;
  let stranger: string;
  beforeAll(async () => {
    admin = await adminCookie(t.app);
    stranger = (await companyOwner(t.app, 'edge-stranger@example.com')).cookie;
  });
  const idOf = async (name: string) => (await sql(`select deployment_id as id from deployment_runtime where default_domain = '${name}' or custom_domain = '${name}'`))[0] as { id: string };

  it('says no edge is configured rather than claiming SSL, and plain http for a server that removed SSL', async () => {
    const { id } = await idOf(names.freeDefault ?? '');
    const res = await api(t.app, owner.cookie, 'GET', `/deployments/${id}/certificate`);
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ state: 'no_edge', domain: names.freeDefault, issuer: null, validTo: null });
    const plain = await idOf(names.plainCustom ?? '');
    expect((await api(t.app, owner.cookie, 'GET', `/deployments/${plain.id}/certificate`)).json().payload).toMatchObject({ state: 'plain_http', domain: names.plainCustom });
    // The admin server page reads the same; a stranger gets nothing.
    expect((await call(t.app, 'GET', `/admin/deployments/${id}/certificate`, admin)).json().payload.state).toBe('no_edge');
    expect((await api(t.app, stranger, 'GET', `/deployments/${id}/certificate`)).statusCode).toBe(403);
    expect((await call(t.app, 'GET', `/admin/deployments/${id}/certificate`, owner.cookie)).statusCode).toBe(403);
    expect((await call(t.app, 'GET', '/admin/deployments/not-a-server/certificate', admin)).json().code).toBe('DEPLOYMENT_NOT_FOUND');
  });

  it("reads the edge's certificate for the server's name, and asks the edge nothing for a domain not verified", async () => {
    const asked: string[] = [];
    const probe: CertificateProbe = async (address, servername) => {
      asked.push(`${address} ${servername}`);
      return { state: 'issued', issuer: 'Pebble', validFrom: '2026-01-01T00:00:00.000Z', validTo: '2026-04-01T00:00:00.000Z' };
    };
    const edge = createEdgeService({ db: t.app.database.db, members: createMembers({ db: t.app.database.db, changes: t.app.database.changes }), config: { EDGE_TLS_ADDRESS: '127.0.0.1:443' }, hosts: t.app.serverHosts, probe });
    const me = { id: (await sql(`select id from users where email = '${owner.email}'`))[0]?.id as string };
    const own = await idOf(names.ownCustom ?? '');
    expect(await edge.certificate(me, own.id)).toMatchObject({ state: 'issued', domain: names.ownCustom, issuer: 'Pebble', validTo: '2026-04-01T00:00:00.000Z' });
    // Kept: the page's polls do not make a handshake each.
    await edge.certificate(me, own.id);
    expect(asked).toEqual([`127.0.0.1:443 ${names.ownCustom}`]);
    const pending = await idOf(names.pendingCustom ?? '');
    expect(await edge.certificate(me, pending.id)).toMatchObject({ state: 'none', domain: names.pendingCustom });
    expect(asked).toHaveLength(1);
  });

  it('tells an edge that does not answer from one that has no certificate for the name', async () => {
    const closed = await freePort();
    expect(await handshakeProbe(`127.0.0.1:${closed}`, 'analytics.shop.test')).toMatchObject({ state: 'unreachable' });
    // A listener that hangs up on the handshake, as the edge does for a name it may not serve.
    const refusing = createTcpServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const port = (refusing.address() as { port: number }).port;
    try {
      expect(await handshakeProbe(`127.0.0.1:${port}`, 'unverified.shop.test')).toMatchObject({ state: 'none', issuer: null });
    } finally {
      await new Promise((resolve) => refusing.close(resolve));
    }
  });
});

describe('plain HTTP at a server address, through the edge', () => {
  const get = (host: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/o/sdk?app_key=x&device_id=d', remoteAddress: '127.0.0.1', headers: { host, ...headers } });

  it('goes on to HTTPS (308, path and query kept) when the edge serves the name there; a server that removed SSL is served over HTTP', async () => {
    const free = names.freeDefault ?? '';
    const moved = await get(`${free}:80`, { 'x-forwarded-proto': 'http' });
    expect(moved.statusCode).toBe(308);
    expect(moved.headers.location).toBe(`https://${free}/o/sdk?app_key=x&device_id=d`);
    expect((await get(names.ownCustom ?? '', { 'x-forwarded-proto': 'http' })).headers.location).toBe(`https://${names.ownCustom}/o/sdk?app_key=x&device_id=d`);
    for (const [host, proto] of [
      [names.plainDefault, 'http'],
      [names.plainCustom, 'http'],
      // Already HTTPS at the edge, or not through the edge at all (no X-Forwarded-Proto).
      [free, 'https'],
      [free, undefined],
    ] as const) {
      const res = await get(host ?? '', proto ? { 'x-forwarded-proto': proto } : {});
      expect(res.statusCode, `${host} ${proto}`).not.toBe(308);
      expect(res.headers.location).toBeUndefined();
    }
  });
});
