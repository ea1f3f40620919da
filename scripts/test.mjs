// `npm test`: every check, in stages that stop at the first failure; runs in one stage go side by
// side. The type check and the linter are single-threaded, so they pair up, and so do the two
// passes of the process tests, which mostly wait; every other stage keeps both cores busy on its
// own (side by side, the browser tests and an API pass each took as long as both one after the
// other).
//
// The API suite runs on PGlite, the embedded database `npm start` gives every new user; when
// TEST_DATABASE_URL names a scratch PostgreSQL database (CI), on that too, the database
// production runs on (with a shorter fuzz walk there: the PGlite pass walks in full). The process
// tests (crashes, stops, restarts) run on both then, and the browser tests always drive the
// product on PGlite.
// Plain JavaScript with no dependency: it runs before any build.
import { spawn } from 'node:child_process';
import process from 'node:process';

const postgres = process.env.TEST_DATABASE_URL;

/** A run: an npm script, or Vitest on some projects with its own environment. */
const npm = (script) => ({ name: script, command: ['run', '--silent', script], env: {} });
const vitest = (name, projects, env = {}, files = []) => ({ name, command: ['exec', '--', 'vitest', 'run', ...projects.flatMap((p) => ['--project', p]), ...files], env });

// The process tests whose database follows DATABASE_URL, the only ones the PGlite pass repeats:
// process.test.ts always runs on PGlite and serversReliability.test.ts always on PostgreSQL, so
// the first pass ran them already.
const ON_EITHER_DATABASE = ['shutdown', 'orderCrash', 'analytics.ingestCrash', 'adminJobs'].map((name) => `tests/api/${name}.test.ts`);

const stages = [
  [npm('typecheck'), npm('lint')],
  [npm('test:unit')],
  ...(postgres
    ? [
        // Shorter walks than a run on PGlite: the fuzz tries every operation six times (22), and
        // five stops in a row (the PGlite process pass below stops ten times, a run of
        // `npm test` on PGlite alone twenty).
        [vitest('API tests on PostgreSQL', ['api'], { DATABASE_URL: postgres, FUZZ_RUNS: '6', FUZZ_INGEST_RUNS: '40' })],
        [vitest('API tests on PGlite', ['api'])],
        // The process tests mostly wait (servers starting, stopping, crashing; timeouts), leaving
        // most of both cores idle: the two passes side by side.
        [
          vitest('API process tests on PostgreSQL', ['api-process'], { DATABASE_URL: postgres, STOP_RUNS: '5' }),
          vitest('API process tests on PGlite', ['api-process'], { STOP_RUNS: '10' }, ON_EITHER_DATABASE),
        ],
      ]
    : [[npm('test:api')]]),
  [npm('test:e2e')],
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
  const results = await Promise.all(stage.map((r) => start(r, prefixed)));
  if (results.some((r) => !r.ok)) process.exit(1);
}
process.stdout.write(`npm test: all passed in ${Math.round((Date.now() - started) / 1000)} s\n`);
