// `npm run edge`: starts Caddy (Debian's `caddy` package) as the TLS edge in front of Beacon, with
// edge/Caddyfile and the settings below, and stays in front of it: signals reach Caddy, its exit
// code is ours. README, "Custom domains and HTTPS", says how to run it in production.
// Plain JavaScript with no dependency, like start.mjs.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const env = process.env;
const set = (name) => (env[name] ? env[name] : undefined);
const LETS_ENCRYPT = 'https://acme-v02.api.letsencrypt.org/directory';

const upstream = set('EDGE_UPSTREAM') ?? `127.0.0.1:${set('PORT') ?? '3000'}`;
// Caddy asks Beacon directly (not through itself) at this address, so the ask sees it as loopback
// (or one of EDGE_ADDRESSES) and the Host names the portal, never a server's address.
const askUrl = new URL(set('EDGE_ASK_URL') ?? `http://${upstream}/api/v1/edge/ask`);
if (set('EDGE_ASK_TOKEN')) askUrl.searchParams.set('token', env.EDGE_ASK_TOKEN);

const settings = {
  EDGE_UPSTREAM: upstream,
  EDGE_ASK_URL: askUrl.toString(),
  EDGE_ACME_CA: set('EDGE_ACME_CA') ?? LETS_ENCRYPT,
  EDGE_HTTP_PORT: set('EDGE_HTTP_PORT') ?? '80',
  EDGE_HTTPS_PORT: set('EDGE_HTTPS_PORT') ?? '443',
  EDGE_ADMIN_ADDRESS: set('EDGE_ADMIN_ADDRESS') ?? 'localhost:2019',
};
// Certificates, ACME accounts and locks: Caddy keeps them under $XDG_DATA_HOME/caddy.
const dataDir = resolve(set('EDGE_DATA_DIR') ?? resolve(set('DATA_DIR') ?? './data', 'edge'));
const caddy = set('CADDY_BIN') ?? 'caddy';
const caddyfile = fileURLToPath(new URL('../edge/Caddyfile', import.meta.url));

if (spawnSync(caddy, ['version'], { stdio: 'ignore' }).status !== 0) {
  process.stderr.write(`npm run edge: no ${caddy} found. Install Debian's caddy package (apt-get install caddy), or set CADDY_BIN.\n`);
  process.exit(1);
}
// A CA whose own HTTPS certificate is not publicly trusted (Pebble in the tests): trust this PEM
// file, and only it, for Caddy's calls to the CA.
const caRoot = set('EDGE_ACME_CA_ROOT');
if (caRoot && !existsSync(caRoot)) {
  process.stderr.write(`npm run edge: EDGE_ACME_CA_ROOT ${caRoot} does not exist.\n`);
  process.exit(1);
}

process.stdout.write(
  `npm run edge: HTTPS on :${settings.EDGE_HTTPS_PORT} and HTTP on :${settings.EDGE_HTTP_PORT} to Beacon at ${upstream}; certificates from ${settings.EDGE_ACME_CA}, each name asked at ${askUrl.origin}${askUrl.pathname}; data in ${dataDir}\n`,
);
const child = spawn(caddy, ['run', '--config', caddyfile, '--adapter', 'caddyfile'], {
  env: { ...env, ...settings, XDG_DATA_HOME: dataDir, XDG_CONFIG_HOME: dataDir, ...(caRoot ? { SSL_CERT_FILE: resolve(caRoot) } : {}) },
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
