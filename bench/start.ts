/**
 * `npm run bench:start`: how long `npm start` takes, after a build, to answer
 * `/api/v1/health/ready`: a fresh install's first start (an empty DATA_DIR) and a later start (the
 * same DATA_DIR again), BENCH_RUNS times each (5 by default), starts alternating with a baseline in
 * the same run: `npm start` of a bare Fastify server answering the same route. Prints each time,
 * the medians and their ratio to the baseline's. Not in CI.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../tests/support/net';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const root = mkdtempSync(join(tmpdir(), 'beacon-start-bench-'));

// The baseline: a package whose `npm start` runs a bare Fastify server (this package's Fastify).
const bare = join(root, 'bare');
mkdirSync(bare);
writeFileSync(join(bare, 'package.json'), JSON.stringify({ name: 'bare', private: true, type: 'module', scripts: { start: 'exec node server.js' } }));
writeFileSync(
  join(bare, 'server.js'),
  `import Fastify from ${JSON.stringify(import.meta.resolve('fastify'))};
const app = Fastify();
app.get('/api/v1/health/ready', async () => ({ status: 'ok' }));
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });`,
);

/** Milliseconds from `npm start` in `cwd` to the first 200 of /health/ready; the server is stopped after. */
async function timeStart(cwd: string, env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn('npm', ['start'], { cwd, env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start in ${cwd} ended with ${child.exitCode}`);
      if (await fetch(`http://127.0.0.1:${port}/api/v1/health/ready`).then((r) => r.ok, () => false)) return performance.now() - started;
      if (performance.now() - started > 60_000) throw new Error('no answer within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const times = { baseline: [] as number[], first: [] as number[], later: [] as number[] };
try {
  for (let run = 0; run < RUNS; run += 1) {
    const dataDir = join(root, `data-${run}`);
    const env = { DATA_DIR: dataDir, DATABASE_URL: '', STATIC_DIR: './dist' };
    times.baseline.push(await timeStart(bare, {}));
    times.first.push(await timeStart(process.cwd(), env));
    times.later.push(await timeStart(process.cwd(), env));
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`\n${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, node ${process.version}, ${RUNS} runs\n`);
  console.log('| start | runs (ms) | median ms | ratio to bare |');
  console.log('|---|---|---:|---:|');
  const base = median(times.baseline);
  for (const [name, label] of [['baseline', 'bare Fastify (`npm start`)'], ['first', 'first start (empty DATA_DIR)'], ['later', 'later start (same DATA_DIR)']] as const) {
    const list = times[name];
    console.log(`| ${label} | ${list.map(Math.round).join(', ')} | ${Math.round(median(list))} | ${(median(list) / base).toFixed(2)} |`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
