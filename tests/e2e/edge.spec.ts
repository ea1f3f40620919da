import { chromium, type Browser, type Page } from '@playwright/test';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { get as httpsGet } from 'node:https';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { startDnsServer, type FakeDns } from '../support/dnsServer';
import { freePort } from '../support/net';
import { companyOwner, loadCatalogue, orderBody, pay, postOrder, STARTER } from '../support/orders';
import { api, FAST_SERVERS, populated, settledIn, until } from '../support/servers';
import { expect, SCREEN, test } from './fixtures';

/**
 * Servers' own addresses over HTTPS through the real edge: Caddy (Debian's package, started by
 * `npm run edge`) obtains certificates on demand from Pebble (Let's Encrypt's test CA, Debian's
 * package), asking Beacon first; a DNS server of the test answers for the test domains (Pebble's
 * challenges and Beacon's verification look them up there); Chromium trusts Pebble's root and maps
 * the test names to this machine. Beacon runs in this process with its own database, behind the
 * edge (TRUST_PROXY=1).
 */
const SHOTS = 'test-results/screens/edge';
const DOMAIN = 'analytics.shop.test';
const UNVERIFIED = 'unverified.shop.test';
const SUFFIX = 'servers.beacon.test';
const SDK = readFileSync(createRequire(import.meta.url).resolve('countly-sdk-web/lib/countly.js'), 'utf8');
const today = () => new Date().toISOString().slice(0, 10);

/** Every binary the journey needs, with the package that brings it. */
const NEEDED = { caddy: 'caddy', pebble: 'pebble', certutil: 'libnss3-tools', openssl: 'openssl' } as const;

interface Stack {
  root: string;
  dns: FakeDns;
  app: FastifyInstance;
  beacon: string;
  pebble: ChildProcess;
  edge: ChildProcess;
  edgeLog: () => string;
  /** What the edge asked Beacon (`<domain> <status>`), in order. */
  asks: string[];
  ports: { https: number; http: number };
  /** HOME of a Chromium whose NSS database trusts this run's Pebble root. */
  browserHome: string;
}
let stack: Stack | undefined;

/** A child process whose output is kept (for a failure's message) and that is ended with the test. */
function child(command: string, args: string[], env: Record<string, string>): { process: ChildProcess; log: () => string } {
  const proc = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return { process: proc, log: () => out };
}

/** GET over HTTPS trusting only `ca` (Pebble's own endpoints). */
function getTrusting(url: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    httpsGet(url, { ca }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

/** One plain-HTTP request to the edge for `host` (Node's fetch cannot set Host). */
function edgeHttp(port: number, host: string, path: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    httpRequest({ host: '127.0.0.1', port, path, headers: { host: `${host}:${port}` } }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, location: res.headers.location });
    })
      .on('error', reject)
      .end();
  });
}

async function startStack(): Promise<Stack> {
  const missing = Object.entries(NEEDED).filter(([bin]) => spawnSync('sh', ['-c', `command -v ${bin}`]).status !== 0);
  if (missing.length) throw new Error(`the edge journey needs ${missing.map(([bin, pkg]) => `${bin} (apt-get install ${pkg})`).join(', ')}; .ci/run installs them`);
  const root = mkdtempSync(join(tmpdir(), 'beacon-edge-'));
  const [https, http, admin, acme, management, beaconPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort(), freePort()]);

  // The test's DNS: the names Pebble validates and Beacon verifies.
  const dns = await startDnsServer();
  for (const name of [DOMAIN, UNVERIFIED]) dns.set(name, 'A', ['127.0.0.1']);

  // Pebble: its API's own certificate (for 127.0.0.1), its config with the edge's ports as the challenge ports.
  const wfeKey = join(root, 'pebble-key.pem');
  const wfeCert = join(root, 'pebble-cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', wfeKey, '-out', wfeCert, '-days', '2', '-subj', '/CN=pebble', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
  const pebbleConfig = join(root, 'pebble.json');
  writeFileSync(
    pebbleConfig,
    JSON.stringify({ pebble: { listenAddress: `127.0.0.1:${acme}`, managementListenAddress: `127.0.0.1:${management}`, certificate: wfeCert, privateKey: wfeKey, httpPort: http, tlsPort: https, ocspResponderURL: '', externalAccountBindingRequired: false } }),
  );
  const pebble = child('pebble', ['-config', pebbleConfig, '-dnsserver', dns.server], { PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0' });
  const wfe = readFileSync(wfeCert, 'utf8');
  await until(() => getTrusting(`https://127.0.0.1:${acme}/dir`, wfe).then((r) => r.status === 200, () => false), 30_000, `Pebble to answer:\n${pebble.log()}`);

  // Chromium trusts this run's Pebble root (its NSS database under its own HOME), nothing else of Pebble's.
  const pebbleRoot = join(root, 'pebble-root.pem');
  writeFileSync(pebbleRoot, (await getTrusting(`https://127.0.0.1:${management}/roots/0`, wfe)).body);
  const browserHome = join(root, 'home');
  const nssdb = join(browserHome, '.pki', 'nssdb');
  mkdirSync(nssdb, { recursive: true });
  execFileSync('certutil', ['-d', `sql:${nssdb}`, '-N', '--empty-password']);
  execFileSync('certutil', ['-d', `sql:${nssdb}`, '-A', '-n', 'pebble-root', '-t', 'C,,', '-i', pebbleRoot]);

  // Beacon behind the edge: servers' addresses carry the edge's ports, the dashboard opens there.
  const config = loadConfig({
    ...process.env,
    ...FAST_SERVERS,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    PORT: String(beaconPort),
    PUBLIC_URL: `http://127.0.0.1:${beaconPort}`,
    DATA_DIR: join(root, 'data'),
    DATABASE_URL: undefined,
    SMTP_URL: undefined,
    STATIC_DIR: './dist',
    TRUST_PROXY: '1',
    DNS_SERVERS: dns.server,
    EDGE_TLS_ADDRESS: `127.0.0.1:${https}`,
    SERVER_DOMAIN_SUFFIX: SUFFIX,
    SERVER_ADDRESS_PORT: String(https),
    SERVER_ADDRESS_HTTP_PORT: String(http),
    SERVER_DASHBOARDS: 'address',
    MOCK_CLOUD_BOOT_MS: '200',
  });
  const app = await buildApp(config);
  const asks: string[] = [];
  app.addHook('onResponse', async (request, reply) => {
    // Caddy's asks (Go's HTTP client), not the test's own.
    if (request.url.startsWith('/api/v1/edge/ask?') && request.headers['user-agent']?.startsWith('Go-http-client')) asks.push(`${new URL(request.url, 'http://edge').searchParams.get('domain') ?? ''} ${reply.statusCode}`);
  });
  await app.listen({ host: '127.0.0.1', port: beaconPort });
  const beacon = `http://127.0.0.1:${beaconPort}`;

  // The edge, as an operator starts it (`npm run edge`), with Pebble as its CA.
  const edge = child(process.execPath, ['scripts/edge.mjs'], {
    EDGE_UPSTREAM: `127.0.0.1:${beaconPort}`,
    EDGE_ACME_CA: `https://127.0.0.1:${acme}/dir`,
    EDGE_ACME_CA_ROOT: wfeCert,
    EDGE_HTTP_PORT: String(http),
    EDGE_HTTPS_PORT: String(https),
    EDGE_ADMIN_ADDRESS: `127.0.0.1:${admin}`,
    EDGE_DATA_DIR: join(root, 'edge'),
  });
  await until(() => fetch(`http://127.0.0.1:${admin}/config/`).then((r) => r.ok, () => false), 30_000, `the edge to start:\n${edge.log()}`);
  return { root, dns, app, beacon, pebble: pebble.process, edge: edge.process, edgeLog: edge.log, asks, ports: { https, http }, browserHome };
}

async function stopStack(s: Stack) {
  const ended = (p: ChildProcess) => (p.exitCode !== null ? Promise.resolve() : new Promise<void>((resolve) => p.once('exit', () => resolve())));
  s.edge.kill('SIGTERM');
  s.pebble.kill('SIGTERM');
  await Promise.all([ended(s.edge), ended(s.pebble)]);
  await s.app.close();
  await s.dns.close();
  rmSync(s.root, { recursive: true, force: true });
}

/** The customer's site, of another origin: the real web SDK sending to the server's own HTTPS address. */
function customerSite(server: string, appKey: string): Server {
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title><link rel="icon" href="data:,">
<script src="/countly.js"></script>
<script>
  Countly.init({ app_key: ${JSON.stringify(appKey)}, url: ${JSON.stringify(server)}, interval: 200, ignore_bots: false });
  Countly.track_sessions();
  Countly.track_pageview('/checkout');
  for (let i = 0; i < 6; i++) Countly.add_event({ key: i % 2 ? 'add_to_cart' : 'search', count: 1 });
</script></head><body><h1>Shop</h1></body></html>`;
  return createServer((req, res) => {
    if (req.url === '/countly.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(SDK);
    else if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    else res.writeHead(404).end();
  });
}

/** Chromium as the tests launch it, trusting Pebble's root and sending the test names to this machine. */
function launchBrowser(s: Stack): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    env: { ...process.env, HOME: s.browserHome },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--host-resolver-rules=MAP *.shop.test 127.0.0.1, MAP *.${SUFFIX} 127.0.0.1`],
  });
}

/** What a TLS failure of a navigation says (net::ERR_...), or null when the page loaded. */
const navigationError = (page: Page, url: string) => page.goto(url).then(
  () => null,
  (e: Error) => /net::ERR_[A-Z_]+/.exec(e.message)?.[0] ?? e.message,
);

test.describe('servers over HTTPS through the edge', () => {
  test.beforeAll(async () => {
    test.setTimeout(90_000);
    stack = await startStack();
  });
  test.afterAll(async () => {
    if (stack) await stopStack(stack);
  });

  test("a verified custom domain gets Pebble's certificate on demand: the web SDK sends to it, its dashboard there shows the events, the server page shows the certificate; an unverified domain gets none", async () => {
    test.setTimeout(180_000);
    const s = stack;
    if (!s) throw new Error('no stack');
    const { app } = s;
    const edgeUrl = (host: string, path = '/') => `https://${host}:${s.ports.https}${path}`;
    const ask = (domain: string) => fetch(`${s.beacon}/api/v1/edge/ask?domain=${domain}`).then((r) => r.status);

    // A paid server with the custom-domain option, running at its default address.
    const cat = await loadCatalogue(app);
    const owner = await companyOwner(app, `edge-${Date.now()}@example.com`);
    const planConfig = { region: cat.region('us-central1'), size: cat.size('mau_500'), features: [cat.feature('domain.custom'), cat.feature('retention.6m'), cat.feature('backup.daily')] };
    const ordered = await postOrder(app, owner.cookie, orderBody(cat, owner, { planCode: STARTER, name: 'Shop Analytics', planConfig }));
    expect(ordered.statusCode, ordered.body).toBe(201);
    const id = ordered.json<{ payload: { _id: string } }>().payload._id;
    expect((await pay(app, owner.cookie, id)).statusCode).toBe(200);
    const running = await settledIn(app, owner.cookie, id, 'running');
    const defaultName = running.domain?.name ?? '';
    expect(defaultName.endsWith(`.${SUFFIX}`)).toBe(true);
    s.dns.set(defaultName, 'A', ['127.0.0.1']);

    // The custom domain, set: its records to publish. Not verified yet, the edge may not serve it.
    expect((await api(app, owner.cookie, 'POST', `/deployments/${id}/update-domain`, { domain: DOMAIN })).statusCode).toBe(200);
    const pending = await settledIn(app, owner.cookie, id, 'running');
    expect(await ask(DOMAIN)).toBe(404);
    for (const record of pending.domain?.verification ?? []) s.dns.set(record.host, record.type, [record.value]);
    expect(pending.domain?.verification.map((r) => r.type).sort()).toEqual(['CNAME', 'TXT']);

    // Verified against the test's DNS: now the ask answers, and the edge obtains the certificate at the first visit.
    expect((await api(app, owner.cookie, 'POST', `/deployments/${id}/verify-domain`, {})).statusCode).toBe(200);
    await until(async () => (await populated(app, owner.cookie, id)).domain?.verified, 30_000, 'the domain to be verified');
    app.serverHosts.forget();
    expect(await ask(DOMAIN)).toBe(200);
    expect(await ask(UNVERIFIED)).toBe(404);

    // Plain HTTP at the edge goes on to HTTPS, at the edge's port.
    expect(await edgeHttp(s.ports.http, DOMAIN, '/o/sdk?method=sc')).toEqual({ status: 308, location: edgeUrl(DOMAIN, '/o/sdk?method=sc') });

    const created = await api(app, owner.cookie, 'POST', `/analytics/${id}/apps`, { name: 'Shop web', type: 'web' });
    expect(created.statusCode, created.body).toBe(201);
    const appKey = created.json<{ payload: { _id: string; key: string } }>().payload;

    const browser = await launchBrowser(s);
    const sitePort = await freePort();
    const site = customerSite(edgeUrl(DOMAIN).replace(/\/$/, ''), appKey.key);
    await new Promise<void>((resolve) => site.listen(sitePort, '127.0.0.1', resolve));
    try {
      // The customer's page sends to https://analytics.shop.test: every request answered, over a certificate Chromium trusts.
      const visitor = await (await browser.newContext()).newPage();
      const failures: string[] = [];
      visitor.on('requestfailed', (r) => failures.push(`${r.url()} ${r.failure()?.errorText ?? ''}`));
      visitor.on('response', (r) => {
        if (r.status() >= 400) failures.push(`${r.status()} ${r.url()}`);
      });
      const sent = visitor.waitForResponse((r) => r.url().startsWith(edgeUrl(DOMAIN, '/i')) && r.ok());
      await visitor.goto(`http://127.0.0.1:${sitePort}/`);
      const answer = await sent;
      expect((await answer.securityDetails())?.issuer).toMatch(/Pebble/);
      const period = `from=${today()}&to=${today()}`;
      await until(async () => {
        const res = await api(app, owner.cookie, 'GET', `/analytics/${id}/apps/${appKey._id}/events?${period}`);
        const events = res.statusCode === 200 ? res.json<{ payload: { key: string; totals: { count: number } }[] }>().payload : [];
        return events.reduce((n, e) => n + e.totals.count, 0) >= 6;
      }, 30_000, 'the events to arrive');
      expect(failures).toEqual([]);

      // The owner, signed in on the portal, sees the certificate the edge serves on the server page, then opens the dashboard at the server's address.
      const context = await browser.newContext({ viewport: SCREEN.wide });
      const [name, value] = owner.cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url: s.beacon }]);
      const page = await context.newPage();
      await page.goto(`${s.beacon}/#/deployments/${id}`);
      const certificate = page.getByTestId('certificate-state');
      await expect(certificate).toHaveAttribute('data-state', 'issued', { timeout: 30_000 });
      await expect(page.getByTestId('certificate-detail')).toContainText(/Issued by Pebble Intermediate CA \w+, expires \w{3} \d{1,2}, \d{4}\./);
      await page.getByTestId('domain-panel').screenshot({ path: `${SHOTS}/certificate-1440.png` });
      await page.setViewportSize(SCREEN.phone);
      await expect(certificate).toBeVisible();
      await page.getByTestId('domain-panel').screenshot({ path: `${SHOTS}/certificate-390.png` });
      await page.setViewportSize(SCREEN.wide);

      // The signed link signs the owner in at the server's own address: its dashboard lands there.
      await page.getByRole('button', { name: 'Open dashboard' }).click();
      await expect(page).toHaveURL(edgeUrl(DOMAIN, `/#/analytics/${id}/events/overview`), { timeout: 30_000 });
      await page.goto(edgeUrl(DOMAIN, `/#/analytics/${id}/events/all`));
      const eventList = page.getByRole('list', { name: 'Event' });
      await expect(eventList.getByText('search')).toBeVisible({ timeout: 30_000 });
      await expect(eventList.getByText('add_to_cart')).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/dashboard-at-domain-1440.png`, fullPage: true });

      // A name that is not a verified domain gets no certificate and no answer: the ask refused it.
      const stranger = await (await browser.newContext()).newPage();
      expect(await navigationError(stranger, edgeUrl(UNVERIFIED))).toMatch(/ERR_SSL_PROTOCOL_ERROR|ERR_CONNECTION_CLOSED|ERR_CONNECTION_RESET/);
      // The edge asked before each name's first certificate: yes for the verified domain, no for the other.
      expect(s.asks).toEqual(expect.arrayContaining([`${DOMAIN} 200`, `${UNVERIFIED} 404`]));
      expect(s.asks.filter((a) => a.endsWith(' 200')).every((a) => a.startsWith(`${DOMAIN} `))).toBe(true);
    } finally {
      await new Promise((resolve) => site.close(resolve));
      await browser.close();
    }
  });
});
