/**
 * The built product for the browser benchmarks (`bench/web.ts`, `bench/app.ts`): the compiled server
 * on an empty data directory with a first admin, mail going to a local sink.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../tests/support/net';
import { startSmtpSink } from '../tests/support/smtpSink';

export const ADMIN = { email: 'bench-admin@example.com', password: 'Bench#Admin-2026' };

export async function startServer() {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'beacon-web-bench-'));
  const smtp = await startSmtpSink();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--max-semi-space-size=64', 'dist-server/index.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      STATIC_DIR: './dist',
      SMTP_URL: smtp.url,
      // A start with SMTP_URL is production: it needs the seller its invoices name.
      SELLER_NAME: 'Beacon Bench Ltd',
      SELLER_ADDRESS: '1 Bench Street | 10115 Berlin',
      SELLER_TAX_ID: 'DE123456789',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 600; i += 1) {
    if (await fetch(`${url}/api/v1/health`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    /** The address of a new invitation, as its mail links to it (the admin's company invites a new address). */
    async invitationAddress(): Promise<string> {
      const call = async (path: string, body: unknown, cookie = '') => {
        const res = await fetch(`${url}/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: url, cookie }, body: JSON.stringify(body) });
        if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
        return res;
      };
      const signedIn = await call('/auth/signin', ADMIN);
      const cookie = signedIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      const company = ((await (await call('/companies', { name: 'Bench Inc' }, cookie)).json()) as { payload: { _id: string } }).payload;
      const email = `invitee-${Date.now()}@example.com`;
      await call(`/companies/${company._id}/invitations`, { email, role: 'viewer' }, cookie);
      const link = /https?:\/\/\S+/.exec((await smtp.waitFor(email, 'invited you')).text)?.[0] ?? '';
      const address = /#(\/account\/invited\?token=\S+)$/.exec(link)?.[1];
      if (!address) throw new Error(`no invitation link in the mail: ${link}`);
      return address;
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await smtp.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
