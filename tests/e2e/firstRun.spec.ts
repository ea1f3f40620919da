import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/net';
import { expect, SCREEN, test } from './fixtures';

/**
 * A newcomer's first run: README's `npm start` with no setting at all (no mail server, no
 * database, no keys), signed up and verified in the browser through the development mailbox.
 * Its own server, as the newcomer's: the other browser tests share one with a mail sink.
 */
let server: ChildProcess;
let base = '';
let log = '';
let dataDir = '';

/** The environment of a fresh shell: none of the product's settings (CI's own may carry some). */
function bareEnvironment(port: number): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ'];
  const env: NodeJS.ProcessEnv = Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));
  return { ...env, PORT: String(port), DATA_DIR: dataDir };
}

test.beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'beacon-first-run-'));
  const port = await freePort();
  base = `http://localhost:${port}`;
  server = spawn(process.execPath, ['--max-semi-space-size=64', 'scripts/start.mjs'], { env: bareEnvironment(port), stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  // The first start copies the build's fresh database: ready when health says so.
  await expect
    .poll(
      async () => {
        if (server.exitCode !== null) throw new Error(`npm start exited ${server.exitCode}:\n${log}`);
        return fetch(`${base}/api/v1/health/ready`).then((r) => r.status, () => 0);
      },
      { timeout: 60_000 },
    )
    .toBe(200);
});

test.afterAll(async () => {
  if (server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

test('a plain npm start gets a newcomer past sign-up through the development mailbox', async ({ page, context }) => {
  await page.setViewportSize(SCREEN.wide);
  const email = `newcomer-${Date.now()}@example.com`;
  await page.goto(`${base}/#/account/create`);
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Tr1cky-Lantern');
  await page.getByLabel('I accept the terms of service').check();
  await page.getByLabel('I accept the privacy policy').check();
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page.getByText(`We sent a link to ${email}`)).toBeVisible();
  const open = page.getByRole('link', { name: 'Open the mailbox' });
  await expect(open).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/first-run-mail-sent-1440.png' });

  // The mailbox opens beside the sign-up tab, newest mail first, its link one click away.
  const [mailbox] = await Promise.all([context.waitForEvent('page'), open.click()]);
  await expect(mailbox.getByRole('heading', { level: 1, name: 'Beacon development mailbox' })).toBeVisible();
  const mail = mailbox.getByRole('article').first();
  await expect(mail.getByRole('heading', { name: 'Verify your Beacon account' })).toBeVisible();
  await expect(mail.getByText(`To ${email}`)).toBeVisible();
  await mailbox.setViewportSize(SCREEN.phone);
  await mailbox.screenshot({ path: 'test-results/screens/first-run-mailbox-390.png' });
  await mail.getByRole('link', { name: /#\/account\/verify\?token=/ }).click();

  // The link verifies and signs in: the newcomer names their company next.
  await expect(mailbox).toHaveURL(/#\/account\/company/);
  await expect(mailbox.getByLabel('Company name')).toBeVisible();

  // The same link is in the server's log (a demo has no other delivery).
  expect(log).toMatch(/mail kept in the outbox \(no SMTP_URL\): http:\/\/localhost:\d+\/#\/account\/verify\?token=/);
  expect(log).toMatch(/mode demo, payments stand-in/);
});

test('the legal links say what they are when the operator has set none', async ({ page }) => {
  await page.setViewportSize(SCREEN.phone);
  await page.goto(`${base}/legal/terms`);
  await expect(page.getByRole('heading', { level: 1, name: 'Beacon terms of service' })).toBeVisible();
  await expect(page.getByText('TERMS_URL')).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/first-run-terms-390.png' });
});
