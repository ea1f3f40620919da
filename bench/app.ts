/**
 * `npm run bench:app`: the signed-in app of the built product as a user feels it. Starts the
 * compiled server, signs its first admin in and creates through the API what the pages show (a
 * company, a running free server, an analytics app), then:
 * - Lighthouse, mobile profile, on the dashboard, the server's page, Billing, the server's
 *   analytics dashboard and the admin companies list, each `BENCH_RUNS` times (2), the median run;
 * - two typical clicks in Chromium under Lighthouse's mobile throttling (4× slower CPU, 150 ms
 *   round trips, 1.6 Mbit/s): opening a server from the servers list, and switching the analytics
 *   period. For each: Total Blocking Time from the click until the page has been quiet for a
 *   second, and the interaction to next paint (the longest event timing of the clicks).
 * Slow, and not part of CI; docs/performance.md keeps the figures of the last run.
 */
import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags, type RunnerResult } from 'lighthouse';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { chromium, type Page } from 'playwright';
import { ADMIN, startServer } from './webServer';

const CHROME = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 2));
const ONLY = process.env.BENCH_ONLY?.split(',');

/** What the pages show, created through the API as the admin. */
async function seed(url: string) {
  const call = async <T>(method: string, path: string, body?: unknown, cookie = ''): Promise<{ payload: T; res: Response }> => {
    const res = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json', origin: url, cookie, 'idempotency-key': randomUUID() },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return { payload: ((await res.json()) as { payload: T }).payload, res };
  };
  const { res } = await call('POST', '/auth/signin', ADMIN);
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const company = (await call<{ _id: string; projects: { _id: string }[] }>('POST', '/companies?onboarding=1', { name: 'Bench Inc' }, cookie)).payload;
  const plans = (await call<{ _id: string; code: string }[]>('GET', '/plans/public')).payload;
  const conf = (await call<{ regions: { _id: string; code: string }[]; features: { _id: string; code: string }[]; sizes: { _id: string; code: string }[] }>('GET', '/plans/configurables/public/gcp')).payload;
  const feature = (code: string) => conf.features.find((f) => f.code === code)?._id ?? '';
  const order = {
    name: 'Bench Server',
    plan: plans.find((p) => p.code === 'v3.mau_500_gcp.base')?._id,
    paymentCycle: 'month',
    planConfig: { region: conf.regions.find((r) => r.code === 'us-central1')?._id, size: conf.sizes.find((s) => s.code === 'mau_500')?._id, features: [feature('domain.default'), feature('retention.6m'), feature('backup.daily')] },
    paymentVendor: 'free',
    company: company._id,
    project: company.projects[0]?._id,
    provider: 'gcp',
  };
  const server = (await call<{ _id: string }>('POST', '/deployments?addProvisionSummary=1', order, cookie)).payload;
  for (let i = 0; ; i += 1) {
    const { status } = (await call<{ status: string }>('GET', `/deployments/${server._id}/populated`, undefined, cookie)).payload;
    if (status === 'running') break;
    if (i > 300) throw new Error(`the bench server is still ${status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  await call('POST', `/analytics/${server._id}/apps`, { name: 'Bench iOS' }, cookie);
  return { cookie, deploymentId: server._id };
}

const score = (value: number | null | undefined) => (value == null ? '  -' : String(Math.round(value * 100)).padStart(3));

/** Lighthouse (mobile, its default throttling) on each signed-in page; prints the median run. */
async function lighthouseRuns(url: string, cookie: string, pages: [string, string][]) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: CHROME_FLAGS });
  const indexes: number[] = [];
  console.log(`${'page'.padEnd(16)}${'address'.padEnd(44)}${'perf'.padStart(5)}${'FCP ms'.padStart(8)}${'LCP ms'.padStart(8)}${'TBT ms'.padStart(8)}${'CLS'.padStart(6)}${'kB'.padStart(6)}${'perf runs'.padStart(11)}`);
  try {
    for (const [name, address] of pages) {
      // The session cookie on every request; storage is kept, as a returning user's would be.
      const flags: Flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], extraHeaders: { Cookie: cookie } };
      const results: RunnerResult[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        const done = await lighthouse(`${url}/#${address}`, flags);
        if (done) results.push(done);
      }
      const scored = results.filter((r) => r.lhr.categories.performance?.score != null);
      if (!scored.length) {
        console.log(`${name.padEnd(16)}${address.padEnd(44)} not scored: ${results[0]?.lhr.runtimeError?.message ?? 'no result'}`);
        continue;
      }
      const median = computeMedianRun(scored.map((r) => r.lhr));
      const numeric = (id: string) => median.audits[id]?.numericValue ?? 0;
      for (const r of scored) indexes.push(r.lhr.environment.benchmarkIndex);
      const perfs = scored.map((r) => Math.round((r.lhr.categories.performance?.score ?? 0) * 100)).sort((a, b) => a - b);
      console.log(
        `${name.padEnd(16)}${address.padEnd(44)}${score(median.categories.performance?.score)}${numeric('first-contentful-paint').toFixed(0).padStart(8)}${numeric('largest-contentful-paint').toFixed(0).padStart(8)}` +
          `${numeric('total-blocking-time').toFixed(0).padStart(8)}${numeric('cumulative-layout-shift').toFixed(2).padStart(6)}${(numeric('total-byte-weight') / 1024).toFixed(0).padStart(6)}${perfs.join(', ').padStart(11)}`,
      );
      if (process.env.BENCH_DETAILS) for (const id of process.env.BENCH_DETAILS.split(',')) console.log(' ', id, String(JSON.stringify(median.audits[id]?.details ?? median.audits[id]?.displayValue ?? null)).slice(0, 3000));
    }
  } finally {
    chrome.kill();
  }
  const sorted = indexes.sort((a, b) => a - b);
  if (sorted.length) console.log(`\n  ${RUNS} run(s) a page, the median run shown; Lighthouse's benchmark index of this machine: ${Math.round(sorted[0] ?? 0)} to ${Math.round(sorted.at(-1) ?? 0)}`);
}

/** Long tasks and event timings from now on, in the page (emptied again before the click). */
async function observe(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { benchTasks: number[]; benchEvents: { name: string; duration: number; interactionId: number }[] };
    w.benchTasks = [];
    w.benchEvents = [];
    new PerformanceObserver((list) => list.getEntries().forEach((e) => w.benchTasks.push(e.duration))).observe({ type: 'longtask' });
    new PerformanceObserver((list) =>
      list.getEntries().forEach((e) => {
        const event = e as PerformanceEventTiming & { interactionId: number };
        if (event.interactionId) w.benchEvents.push({ name: event.name, duration: event.duration, interactionId: event.interactionId });
      }),
    ).observe({ type: 'event', durationThreshold: 16, buffered: false } as PerformanceObserverInit);
  });
}

/** Total Blocking Time and interaction to next paint since `observe`, once the page has been quiet for a second. */
async function settle(page: Page) {
  let count = -1;
  for (let i = 0; i < 30; i += 1) {
    await page.waitForTimeout(1000);
    const now = await page.evaluate(() => (window as unknown as { benchTasks: number[] }).benchTasks.length);
    if (now === count) break;
    count = now;
  }
  return page.evaluate(() => {
    const w = window as unknown as { benchTasks: number[]; benchEvents: { duration: number }[] };
    return { tbt: w.benchTasks.reduce((sum, d) => sum + Math.max(0, d - 50), 0), inp: Math.max(0, ...w.benchEvents.map((e) => e.duration)), longTasks: w.benchTasks.length };
  });
}

/** The two clicks, each `RUNS` times on a fresh page under mobile throttling. */
async function interactions(url: string, cookie: string, deploymentId: string) {
  const browser = await chromium.launch({ executablePath: CHROME, args: CHROME_FLAGS.filter((f) => f !== '--headless') });
  const cookies = cookie.split('; ').map((pair) => {
    const [name = '', ...value] = pair.split('=');
    return { name, value: value.join('='), url };
  });
  const clicks: [string, string, (page: Page) => Promise<void>, (page: Page) => Promise<void>][] = [
    [
      'open a server',
      '/deployments',
      (page) => page.getByRole('link', { name: 'Bench Server' }).first().waitFor({ timeout: 60_000 }),
      async (page) => {
        await page.getByRole('link', { name: 'Bench Server' }).first().click();
        await page.getByRole('heading', { name: 'Bench Server' }).first().waitFor({ timeout: 60_000 });
      },
    ],
    [
      'switch the analytics period',
      `/analytics/${deploymentId}/events/overview`,
      (page) => page.getByRole('button', { name: /Period/ }).first().waitFor({ timeout: 60_000 }),
      async (page) => {
        await page.getByRole('button', { name: /Period/ }).first().click();
        await page.getByRole('button', { name: 'Last 7 days' }).click();
      },
    ],
  ];
  console.log(`\n${'click'.padEnd(30)}${'TBT ms'.padStart(8)}${'INP ms'.padStart(8)}${'long tasks'.padStart(12)}   runs (TBT / INP)`);
  try {
    for (const [name, address, ready, act] of clicks) {
      const runs: { tbt: number; inp: number; longTasks: number }[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1.75 });
        await context.addCookies(cookies);
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1638.4 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        await page.goto(`${url}/#${address}`);
        await ready(page);
        await observe(page);
        await settle(page);
        await page.evaluate(() => {
          const w = window as unknown as { benchTasks: number[]; benchEvents: unknown[] };
          w.benchTasks.length = 0;
          w.benchEvents.length = 0;
        });
        await act(page);
        runs.push(await settle(page));
        await context.close();
      }
      const sorted = [...runs].sort((a, b) => a.tbt + a.inp - (b.tbt + b.inp));
      const median = sorted[Math.floor((sorted.length - 1) / 2)] ?? { tbt: 0, inp: 0, longTasks: 0 };
      console.log(`${name.padEnd(30)}${median.tbt.toFixed(0).padStart(8)}${median.inp.toFixed(0).padStart(8)}${String(median.longTasks).padStart(12)}   ${runs.map((r) => `${r.tbt.toFixed(0)} / ${r.inp.toFixed(0)}`).join(', ')}`);
    }
  } finally {
    await browser.close();
  }
}

async function main() {
  const server = await startServer();
  try {
    const { cookie, deploymentId } = await seed(server.url);
    console.log(`\nbench:app: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Chromium at ${CHROME}\n`);
    const pages: [string, string][] = [
      ['dashboard', '/dashboard'],
      ['server', `/deployments/${deploymentId}`],
      ['billing', '/management/billing'],
      ['analytics', `/analytics/${deploymentId}/events/overview`],
      ['admin companies', '/admin/companies'],
    ];
    if (!ONLY || ONLY.includes('lighthouse')) await lighthouseRuns(server.url, cookie, pages);
    if (!ONLY || ONLY.includes('clicks')) await interactions(server.url, cookie, deploymentId);
  } finally {
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
