/**
 * `npm run bench:web`: Lighthouse on the front door of the built product, as a phone on a slow
 * network (Lighthouse's default mobile throttling) and as a desktop. Prints the four category
 * scores, largest contentful paint, total blocking time and bytes transferred per route. Slow, and
 * not part of CI; docs/performance.md keeps the numbers of the last run. `/account/invited` is
 * opened as an invitee opens it: from the link of a real invitation mail (an admin's company
 * invites an address).
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags, type RunnerResult } from 'lighthouse';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { startServer } from './webServer';

const ROUTES = (process.env.BENCH_ROUTES ?? '/account/signin,/account/create,/pricing,/get-started,/forgot-password,/account/invited').split(',');
const DEVICES = (process.env.BENCH_DEVICES ?? 'mobile,desktop').split(',') as ('mobile' | 'desktop')[];
const CHROME = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));

const score = (value: number | null | undefined) => (value == null ? '  -' : String(Math.round(value * 100)).padStart(3));

async function main() {
  const server = await startServer();
  const invited = ROUTES.includes('/account/invited') ? await server.invitationAddress() : '';
  const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  console.log(`\nbench:web: Lighthouse, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Chromium at ${CHROME}\n`);
  console.log(`${'route'.padEnd(20)}${'device'.padEnd(9)}${'perf'.padStart(5)}${'a11y'.padStart(5)}${'bp'.padStart(5)}${'seo'.padStart(5)}${'LCP ms'.padStart(8)}${'TBT ms'.padStart(8)}${'kB'.padStart(7)}${'perf runs'.padStart(10)}${'TBT runs'.padStart(12)}`);
  const failing = new Map<string, string[]>();
  const benchmarkIndexes: number[] = [];
  try {
    for (const device of DEVICES) {
      for (const route of ROUTES) {
        const flags: Flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] };
        const run = async () => {
          const done = await lighthouse(`${server.url}/#${route === '/account/invited' ? invited : route}`, flags, device === 'desktop' ? desktopConfig : undefined);
          if (!done) throw new Error(`no Lighthouse result for ${route}`);
          // Lighthouse now and then loses the trace of a load (NO_NAVSTART): that run is measured again, once.
          return done.lhr.runtimeError?.code === 'NO_NAVSTART' ? ((await lighthouse(`${server.url}/#${route === '/account/invited' ? invited : route}`, flags, device === 'desktop' ? desktopConfig : undefined)) ?? done) : done;
        };
        // Several runs, reported as Lighthouse's median run (the one nearest the median first paint
        // and interactive time): one run's TBT moves by a factor of two on a busy 2-core machine.
        const results: RunnerResult[] = [];
        for (let i = 0; i < RUNS; i += 1) {
          const result = await run();
          // BENCH_TRACE=dir keeps each run's trace, to open in the browser's Performance panel.
          if (process.env.BENCH_TRACE) writeFileSync(join(process.env.BENCH_TRACE, `${device}${route.replaceAll('/', '-')}-${i + 1}.json`), JSON.stringify(result.artifacts.Trace));
          results.push(result);
        }
        const scored = results.filter((r) => r.lhr.categories.performance?.score != null);
        const median = scored.length ? computeMedianRun(scored.map((r) => r.lhr)) : (results[0] as RunnerResult).lhr;
        const { categories, audits } = median;
        const numeric = (id: string) => audits[id]?.numericValue ?? 0;
        // A run Lighthouse could not score says why (its runtime error, or the audits that failed).
        for (const { lhr } of results.filter((r) => !scored.includes(r))) {
          const errors = Object.values(lhr.audits).flatMap((a) => (a.errorMessage ? [`${a.id}: ${a.errorMessage}`] : []));
          console.log(`  ${route} (${device}) a run not scored: ${lhr.runtimeError?.message ?? errors.slice(0, 3).join('; ')}`);
        }
        // Audits short of full marks outside performance, to say what a score below 100 is about.
        for (const id of ['accessibility', 'best-practices', 'seo']) {
          for (const ref of categories[id]?.auditRefs ?? []) {
            const audit = audits[ref.id];
            if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1 && process.env.BENCH_DETAILS) console.log(JSON.stringify(audit.details).slice(0, 1500));
            if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) failing.set(`${id}: ${ref.id}`, [...(failing.get(`${id}: ${ref.id}`) ?? []), `${route} (${device})`]);
          }
        }
        // What the largest paint was and where its time went, to say what to work on.
        if (process.env.BENCH_DETAILS) for (const id of (process.env.BENCH_DETAILS === '1' ? ['largest-contentful-paint-element', 'lcp-breakdown-insight', 'render-blocking-insight', 'network-dependency-tree-insight'] : process.env.BENCH_DETAILS.split(','))) console.log(id, String(JSON.stringify(audits[id]?.details ?? audits[id]?.displayValue ?? null)).slice(0, Number(process.env.BENCH_DETAILS_CHARS ?? 3000)));
        for (const r of scored) benchmarkIndexes.push(r.lhr.environment.benchmarkIndex);
        const range = (pick: (lhr: RunnerResult['lhr']) => number) => {
          const values = scored.map((r) => Math.round(pick(r.lhr))).sort((a, b) => a - b);
          return values.length > 1 ? `${values[0]}–${values[values.length - 1]}` : '';
        };
        console.log(
          `${route.padEnd(20)}${device.padEnd(9)}${score(categories.performance?.score)}  ${score(categories.accessibility?.score)}  ${score(categories['best-practices']?.score)}  ${score(categories.seo?.score)}` +
            `${numeric('largest-contentful-paint').toFixed(0).padStart(8)}${numeric('total-blocking-time').toFixed(0).padStart(8)}${(numeric('total-byte-weight') / 1024).toFixed(0).padStart(7)}` +
            `${range((lhr) => (lhr.categories.performance?.score ?? 0) * 100).padStart(10)}${range((lhr) => lhr.audits['total-blocking-time']?.numericValue ?? 0).padStart(12)}`,
        );
      }
    }
    const sorted = benchmarkIndexes.sort((a, b) => a - b);
    if (sorted.length) console.log(`\n  ${RUNS} run(s) a row, the median run shown; Lighthouse's benchmark index of this machine: ${Math.round(sorted[0] ?? 0)} to ${Math.round(sorted.at(-1) ?? 0)} (median ${Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0)})`);
    for (const [audit, where] of failing) console.log(`\n  not passed: ${audit} on ${where.length} page(s), e.g. ${where[0]}`);
  } finally {
    chrome.kill();
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
