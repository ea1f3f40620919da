// `npm test`: every check, in stages that stop at the first failure. The type check and the linter
// are single-threaded, so they run side by side. When TEST_DATABASE_URL names a scratch PostgreSQL
// database (CI), the API suite runs on it too, last. It ran beside the browser tests at first (they
// use about 0.7 of a core), but that saved two minutes of 25 and made deadline-bound tests flaky.
// Plain JavaScript with no dependency: it runs before any build.
import { spawn } from 'node:child_process';
import process from 'node:process';

const postgres = process.env.TEST_DATABASE_URL;

/** A run: an npm script, with its own environment when it needs one. */
const npm = (script, env = {}) => ({ name: script + (env.DATABASE_URL ? ' on PostgreSQL' : ''), script, env });

const stages = [
  [npm('typecheck'), npm('lint')],
  [npm('test:unit')],
  [npm('test:api')],
  [npm('test:e2e')],
  // The PGlite pass walks the full fuzz and twenty stops in a row; this one checks the same paths on
  // PostgreSQL's dialect and pool with shorter walks.
  ...(postgres ? [[npm('test:api', { DATABASE_URL: postgres, FUZZ_RUNS: '6', FUZZ_INGEST_RUNS: '40', STOP_RUNS: '5' })]] : []),
];

const running = new Set();

/** Runs one npm script; beside others, each line of its output carries its name. */
function start({ name, script, env }, prefixed) {
  const started = Date.now();
  const child = spawn('npm', ['run', '--silent', script], {
    env: { ...process.env, ...env },
    stdio: prefixed ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  running.add(child);
  child.on('close', () => running.delete(child));
  if (prefixed) {
    for (const [from, to] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
      let rest = '';
      from.setEncoding('utf8');
      from.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) to.write(`[${name}] ${line}\n`);
      });
      from.on('end', () => rest && to.write(`[${name}] ${rest}\n`));
    }
  }
  return new Promise((resolve) => {
    child.on('close', (code, signal) => resolve({ name, ok: code === 0, code: code ?? signal, seconds: Math.round((Date.now() - started) / 1000) }));
  });
}

// A signal to `npm test` reaches the runs it started too (from a terminal they get it themselves;
// a CI runner may signal only this process).
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of running) child.kill(signal);
    process.exit(130);
  });
}

const started = Date.now();
for (const stage of stages) {
  const results = await Promise.all(stage.map((r) => start(r, stage.length > 1)));
  for (const r of results) process.stdout.write(`npm test: ${r.name} ${r.ok ? 'passed' : `FAILED (${r.code})`} in ${r.seconds} s\n`);
  if (results.some((r) => !r.ok)) process.exit(1);
}
process.stdout.write(`npm test: all passed in ${Math.round((Date.now() - started) / 1000)} s\n`);
