import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { freePort } from '../support/net';
import { SCREEN } from './fixtures';

const SCREENS = process.env.SCREENSHOT_DIR ?? 'test-results/screens';
const PASSWORD = 'Tr1cky-Lantern';

/**
 * WebAuthn refuses an IP address as the relying party, and the shared product runs on 127.0.0.1:
 * this file starts the built product on `localhost` of its own (PUBLIC_URL gives origin and RP ID),
 * mails kept in its outbox.
 */
let app: FastifyInstance;
let baseURL = '';
let dataDir = '';
base.beforeAll(async () => {
  // A new database on a busy machine takes a while.
  base.setTimeout(180_000);
  dataDir = mkdtempSync(join(tmpdir(), 'beacon-passkeys-'));
  const port = await freePort();
  baseURL = `http://localhost:${port}`;
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    PUBLIC_URL: baseURL,
    DATA_DIR: join(dataDir, 'data'),
    DATABASE_URL: undefined,
    STATIC_DIR: './dist',
    SMTP_URL: undefined,
    GOOGLE_CLIENT_ID: undefined,
    WORKER_ENABLED: 'false',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '1000',
  });
  app = await buildApp(config);
  await app.listen({ host: '127.0.0.1', port });
});
base.afterAll(async () => {
  await app?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const test = base.extend({
  // eslint-disable-next-line no-empty-pattern -- Playwright requires the object pattern here.
  baseURL: async ({}, provide) => {
    await provide(baseURL);
  },
});

/** The newest mail's link to an address, from the product's outbox. */
async function mailedLink(to: string, subject: string): Promise<string> {
  for (let i = 0; i < 100; i += 1) {
    const [mail] = await app.database.rows<{ text: string }>(`select text from mail_outbox where "to" = '${to}' and strpos(subject, '${subject}') > 0 order by created_at desc limit 1`);
    const link = mail && /https?:\/\/\S+/.exec(mail.text)?.[0];
    if (link) return link;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail "${subject}" to ${to}`);
}

/** A verified account with a company, signed in in the page's cookie jar. */
async function newMember(page: Page): Promise<string> {
  const email = `passkey-${Date.now()}@e2e.example.com`;
  expect((await page.request.post('/api/v1/users', { data: { firstName: 'Ada', lastName: 'Lovelace', email, password: PASSWORD } })).status()).toBe(201);
  const token = new URL((await mailedLink(email, 'Verify')).replace('/#/', '/')).searchParams.get('token') ?? '';
  expect((await page.request.post('/api/v1/auth/verify', { data: { token } })).ok()).toBe(true);
  expect((await page.request.post('/api/v1/companies?onboarding=1&designation=dev', { data: { name: 'Difference Engines' } })).status()).toBe(201);
  return email;
}

/** Chromium's virtual authenticator (DevTools protocol): a platform authenticator that verifies the user. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENS, name), fullPage: true, animations: 'disabled' });

test('registers a passkey in the profile, signs out, and signs in with the passkey alone', async ({ page }) => {
  // The signed-in app's first load on a cold server is slow on a busy machine.
  const authenticator = await addVirtualAuthenticator(page);
  // The virtual authenticator answers the email field's passkey autofill at once, where a person
  // would pick the passkey from the suggestions; without autofill the button's path is the one tested.
  await page.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
  });
  const email = await newMember(page);

  await page.goto('/#/profile/authentication');
  const section = page.getByRole('region', { name: 'Passkeys' });
  await expect(section.getByText('No passkeys yet.')).toBeVisible({ timeout: 30_000 });
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await section.getByLabel('Name').fill('Work laptop');
  await section.getByRole('button', { name: 'Create passkey' }).click();
  await expect(section.getByRole('status')).toHaveText('The passkey “Work laptop” was added. You can now sign in with it.');
  await expect(section.getByRole('list', { name: 'Passkeys' }).getByText('Work laptop')).toBeVisible();
  await expect(section.getByText(/Never used/)).toBeVisible();
  // The authenticator holds it as a discoverable credential, for this site.
  const held = await authenticator.credentials();
  expect(held).toHaveLength(1);
  expect(held[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
  for (const size of Object.values(SCREEN)) {
    await page.setViewportSize(size);
    await expect(section.getByText('Work laptop', { exact: true })).toBeVisible();
    await shot(page, `passkeys-profile-${size.width}.png`);
    if (size.width === SCREEN.phone.width) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
  }

  await page.setViewportSize(SCREEN.wide);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/#\/account\/create/);
  expect((await page.request.get('/api/v1/auth/me')).status()).toBe(401);

  await page.goto('/#/account/signin');
  const passkeyButton = page.getByRole('button', { name: 'Sign in with a passkey' });
  await expect(passkeyButton).toBeVisible({ timeout: 30_000 });
  for (const size of Object.values(SCREEN)) {
    await page.setViewportSize(size);
    await expect(passkeyButton).toBeVisible();
    await shot(page, `passkeys-signin-${size.width}.png`);
  }
  // No email, no password: the passkey alone.
  await passkeyButton.click();
  await expect(page).toHaveURL(/#\/dashboard/);
  const me = await page.request.get('/api/v1/auth/me');
  expect((await me.json()).payload.email).toBe(email);

  await page.goto('/#/profile/authentication');
  await expect(page.getByRole('region', { name: 'Passkeys' }).getByText(/Last used/)).toBeVisible();
  expect(await mailedLink(email, 'signed in to with a passkey')).toBe(`${baseURL}/#/profile/authentication`);
});
