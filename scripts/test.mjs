// `npm test`: every check, in stages that stop at the first failure. Runs in one stage go side by
// side; a list inside a stage is a chain, one run after another. The type check and the linter are
// single-threaded, so they pair up. The browser tests mostly wait (four files at a time use about
// one core), so the process tests and, when TEST_DATABASE_URL names a scratch PostgreSQL database
// (CI), the API suite on it run beside them; the rest of the API suite takes both cores before.
// Plain JavaScript with no dependency: it runs before any build.
import { spawn } from 'node:child_process';
import process from 'node:process';

const postgres = process.env.TEST_DATABASE_URL;

/** A run: an npm script, or a tool of the project with its arguments; its own environment when it needs one. */
const npm = (script) => ({ name: script, command: ['run', '--silent', script], env: {} });
const vitest = (name, projects, env = {}) => ({ name, command: ['exec', '--', 'vitest', 'run', ...projects.flatMap((p) => ['--project', p])], env });

const stages = [
  [npm('typecheck'), npm('lint')],
  [npm('test:unit')],
  [vitest('API tests', ['api'])],
  [
    npm('test:e2e'),
    [
      vitest('API process tests', ['api-process']),
      // The PGlite pass walks the full fuzz and twenty stops in a row; this one checks the same
      // paths on PostgreSQL's dialect and pool with shorter walks.
      ...(postgres ? [vitest('API tests on PostgreSQL', ['api', 'api-process'], { DATABASE_URL: postgres, FUZZ_RUNS: '6', FUZZ_INGEST_RUNS: '40', STOP_RUNS: '5' })] : []),
    ],
  ],
];

const running = new Set();

/** Starts one run; beside others, each line of its output carries its name. */
function start({ name, command, env }, prefixed) {
  const started = Date.now();
  const child = spawn('npm', command, {
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
    child.on('close', (code, signal) => {
      const result = { name, ok: code === 0, code: code ?? signal, seconds: Math.round((Date.now() - started) / 1000) };
      process.stdout.write(`npm test: ${name} ${result.ok ? 'passed' : `FAILED (${result.code})`} in ${result.seconds} s\n`);
      resolve(result);
    });
  });
}

/** Runs a chain one after another, stopping at its first failure. */
async function chain(runs, prefixed) {
  const results = [];
  for (const run of runs) {
    const result = await start(run, prefixed);
    results.push(result);
    if (!result.ok) break;
  }
  return results;
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
  const prefixed = stage.length > 1;
  const results = (await Promise.all(stage.map((r) => (Array.isArray(r) ? chain(r, prefixed) : start(r, prefixed))))).flat();
  if (results.some((r) => !r.ok)) process.exit(1);
}
process.stdout.write(`npm test: all passed in ${Math.round((Date.now() - started) / 1000)} s\n`);
