// `npm start`: builds the product when the build is missing or older than its sources, then runs
// the compiled server in this very process, so the signals npm forwards (SIGTERM, SIGINT) reach
// the server itself. Plain JavaScript: it runs before anything is compiled.
import { spawnSync } from 'node:child_process';
import process from 'node:process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const SERVER = 'dist-server/index.js';
const BUILT = [SERVER, 'dist/index.html'];
const SOURCES = ['server', 'src', 'portal', 'admin', 'dataProvider', 'i18n', 'public', 'scripts', 'index.html', 'vite.config.ts', 'package-lock.json'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs);
}

const builtAt = Math.min(...BUILT.map((f) => (existsSync(f) ? statSync(f).mtimeMs : 0)));
if (builtAt === 0 || Math.max(...SOURCES.map(newest)) > builtAt) {
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
// The server decides whether this start is a demo (server/startMode.ts): a bare `npm start` is, one
// that carries production settings is not. It says which and why in its log at every start.
process.env.STARTED_BY = 'npm-start';
process.setSourceMapsEnabled(true);
await import(pathToFileURL(resolve(SERVER)).href);
