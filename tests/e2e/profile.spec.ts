import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import type { Download, Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { LIMITS } from '../../src/domain/constants';
import { expect, openSignIn, SCREEN, test } from './fixtures';
import { waitForMail } from './mailbox';

const PASSWORD = 'Tr1cky-Lantern';
const NEW_PASSWORD = 'Brass-Gear-42';
let n = 0;
const newEmail = (tag: string) => `${tag}-${Date.now()}-${(n += 1)}@e2e.example.com`;
const tokenOf = (link: string) => new URL(link.replace('/#/', '/')).searchParams.get('token') ?? '';
const SCREENS = process.env.SCREENSHOT_DIR ?? 'test-results/screens';

// --- A real PNG, made here: the server sniffs the bytes and the browser has to draw it. ---
const CRC_TABLE = Array.from({ length: 256 }, (_, i) => {
  let c = i;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
/** A size×size PNG with a diagonal two-colour pattern. */
function makePng(size = 32): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const rows = Array.from({ length: size }, (_, y) =>
    Buffer.from([0, ...Array.from({ length: size }, (_, x) => (x > y ? [26, 86, 219] : [14, 159, 110])).flat()]),
  );
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * A verified account with a company, made through the API with the page's own cookie jar, so the
 * browser is signed in as that person afterwards.
 */
async function newMember(page: Page, tag: string) {
  const email = newEmail(tag);
  const signUp = await page.request.post('/api/v1/users', { data: { firstName: 'Ada', lastName: 'Lovelace', email, password: PASSWORD } });
  expect(signUp.status()).toBe(201);
  const mail = await waitForMail(email, 'Verify');
  expect((await page.request.post('/api/v1/auth/verify', { data: { token: tokenOf(mail.link) } })).ok()).toBe(true);
  expect((await page.request.post('/api/v1/companies?onboarding=1&designation=dev', { data: { name: 'Difference Engines' } })).status()).toBe(201);
  return email;
}

async function openProfile(page: Page, section: 'account' | 'authentication' | 'data') {
  await page.goto(`/#/profile/${section}`);
  await expect(page).toHaveURL(new RegExp(`#/profile/${section}$`));
}

async function signInForm(page: Page, email: string, password: string) {
  await openSignIn(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/#\/account\/create/);
}

const avatarImage = (page: Page) => page.getByRole('main').locator('img[alt="Ada Lovelace"], img[alt="Augusta Lovelace"]');
const readDownload = async (download: Download) => readFileSync((await download.path()) ?? '', 'utf8');
const pad = (v: number) => String(v).padStart(2, '0');
const localDate = (d = new Date()) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** A screenshot for review, with transitions (tab indicator, dialog fade) finished. */
const shot = (page: Page, name: string, fullPage = false) => page.screenshot({ path: join(SCREENS, name), fullPage, animations: 'disabled' });

/** Nothing sticks out sideways on a phone. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(SCREEN.phone.width);
}

test.describe('profile', () => {
  test('/profile opens account settings; the sections fit a phone and a desktop', async ({ page }) => {
    await newMember(page, 'sections');
    for (const [label, size] of Object.entries(SCREEN)) {
      await page.setViewportSize(size);
      await page.goto('/#/profile');
      await expect(page).toHaveURL(/#\/profile\/account$/);
      await expect(page.getByRole('heading', { level: 2, name: 'Account settings' })).toBeVisible();
      await shot(page, `profile-account-${size.width}.png`, true);
      for (const [tab, heading, file] of [
        ['Authentication', 'Two-factor authentication', 'authentication'],
        ['Data', 'Delete my account', 'data'],
      ] as const) {
        await page.getByRole('tab', { name: tab }).click();
        await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
        await shot(page, `profile-${file}-${size.width}.png`, true);
        if (label === 'phone') await expectNoSidewaysScroll(page);
      }
      // The setup step, with its QR code, is the widest thing on these pages.
      await page.getByRole('tab', { name: 'Authentication' }).click();
      await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
      await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
      await shot(page, `profile-2fa-setup-${size.width}.png`, true);
      if (label === 'phone') await expectNoSidewaysScroll(page);
      await page.getByRole('button', { name: 'Cancel' }).click();
    }
  });

  test('picture upload and removal, and a name change, persist after reload', async ({ page }) => {
    await page.setViewportSize(SCREEN.wide);
    await newMember(page, 'picture');
    await openProfile(page, 'account');
    await expect(avatarImage(page)).toHaveCount(0);

    // Too big: refused here, before any upload.
    await page.getByLabel('Upload picture').setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.concat([makePng(), Buffer.alloc(LIMITS.uploadMaxBytes)]) });
    await expect(page.getByRole('alert')).toHaveText('The file is too big.');

    await page.getByLabel('Upload picture').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: makePng() });
    await expect(avatarImage(page)).toHaveAttribute('src', /^data:image\/png;base64,/);
    // Drawn, not just referenced: the page's content security policy must allow the preview.
    await expect.poll(() => avatarImage(page).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(32);
    await expect(page.getByText('Save your changes to apply the new picture.')).toBeVisible();
    await page.getByLabel('First name').fill('Augusta');
    await page.getByLabel('Your role').selectOption('founder');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Your profile was saved.')).toBeVisible();
    await expect(avatarImage(page)).toHaveAttribute('src', /\/api\/v1\/files\//);
    await shot(page, 'profile-picture-1440.png', true);

    await page.reload();
    await expect(page.getByLabel('First name')).toHaveValue('Augusta');
    await expect(page.getByLabel('Your role')).toHaveValue('founder');
    const src = (await avatarImage(page).getAttribute('src')) ?? '';
    expect(src).toMatch(/\/api\/v1\/files\//);
    // The browser really drew it.
    await expect.poll(() => avatarImage(page).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(32);
    const served = await page.request.get(src);
    expect(served.status()).toBe(200);
    expect(served.headers()['content-type']).toContain('image/png');

    await page.getByRole('button', { name: 'Remove picture' }).click();
    await expect(avatarImage(page)).toHaveCount(0);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Your profile was saved.')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('First name')).toHaveValue('Augusta');
    await expect(page.getByRole('button', { name: 'Upload picture' })).toBeVisible();
    await expect(avatarImage(page)).toHaveCount(0);
    expect((await page.request.get(src)).status()).toBe(404);
  });

  test('setting a password signs out; the new password signs in and the old one no longer does', async ({ page }) => {
    await page.setViewportSize(SCREEN.phone);
    const email = await newMember(page, 'password');
    await openProfile(page, 'account');

    await page.getByLabel('Current password').fill('Not-The-One1');
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect(page.getByRole('textbox', { name: 'Current password' })).toHaveAccessibleDescription('The password is wrong.');

    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm new password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect(page.getByLabel('New password', { exact: true })).toHaveAccessibleDescription('The new password must differ from the old one.');
    await shot(page, 'profile-password-errors-390.png', true);

    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect(page).toHaveURL(/#\/account\/signin\?ref=password-reset$/);
    await expect(page.getByText('Your password was changed. Sign in with the new one.')).toBeVisible();
    // The session is over on the server too.
    expect((await page.request.get('/api/v1/auth/me')).status()).toBe(401);

    await signInForm(page, email, PASSWORD);
    await expect(page.getByRole('alert')).toContainText('The email or password is wrong.');
    await signInForm(page, email, NEW_PASSWORD);
    await expect(page).toHaveURL(/#\/dashboard/);
  });

  test('two-factor sign-in: set up with the app, codes shown once, then sign-in asks for a code', async ({ page }) => {
    await page.setViewportSize(SCREEN.wide);
    const email = await newMember(page, 'twofactor');
    await openProfile(page, 'authentication');
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
    const secret = (await page.getByLabel('Setup key').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
    // A code valid in none of the steps the server accepts (now ±1).
    const valid = [-30_000, 0, 30_000].map((shift) => totp.generate({ timestamp: Date.now() + shift }));
    const wrong = ['000000', '111111', '222222', '333333'].find((c) => !valid.includes(c)) ?? '';

    await page.getByLabel('Code from the app').fill(wrong);
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect(page.getByRole('alert')).toHaveText('The code is wrong or has expired.');

    await page.getByLabel('Code from the app').fill(totp.generate());
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    const recoveryCodes = (await codes.allTextContents()).map((c) => c.trim());
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    await expect(page.getByText('Save these codes now: they will not be shown again.')).toBeVisible();
    await shot(page, 'profile-2fa-codes-1440.png', true);

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download .txt' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('beacon-recovery-codes.txt');
    const file = await readDownload(download);
    for (const code of recoveryCodes) expect(file).toContain(code);

    // Shown once: a reload has the 'on' state and the turn-off form, not the codes.
    await page.reload();
    await expect(page.getByRole('button', { name: 'Turn off' })).toBeVisible();
    await expect(page.getByText(recoveryCodes[0] ?? '-')).toHaveCount(0);

    await signOut(page);
    await signInForm(page, email, PASSWORD);
    await expect(page.getByLabel('Authentication code')).toBeVisible();
    await page.getByLabel('Authentication code').fill(wrong);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('The code is wrong or has expired.');
    // The enabling code used this time step, and a step works once: take the next one (the server allows ±1).
    const next = totp.generate({ timestamp: Date.now() + 30_000 });
    await page.getByLabel('Authentication code').fill(next);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/#\/dashboard/);

    // The same code is not accepted twice; a recovery code signs in instead.
    await signOut(page);
    await signInForm(page, email, PASSWORD);
    await page.getByLabel('Authentication code').fill(next);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('The code is wrong or has expired.');
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[1] ?? '');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/#\/dashboard/);

    // A recovery code turns it off again, once.
    await openProfile(page, 'authentication');
    await page.getByLabel('Authentication or recovery code').fill(recoveryCodes[0] ?? '');
    await page.getByRole('button', { name: 'Turn off' }).click();
    await expect(page.getByText('Two-factor authentication is off.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Set up two-factor authentication' })).toBeVisible();
    await signOut(page);
    await signInForm(page, email, PASSWORD);
    await expect(page).toHaveURL(/#\/dashboard/);
  });

  test('download my data saves a dated JSON file with the account in it', async ({ page }) => {
    await page.setViewportSize(SCREEN.phone);
    const email = await newMember(page, 'export');
    await openProfile(page, 'data');
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download my data' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`beacon-data-${localDate()}.json`);
    const data = await readDownload(download);
    expect(() => JSON.parse(data) as unknown).not.toThrow();
    expect(data).toContain(email);
    await expect(page.getByText(`Your data was downloaded as beacon-data-${localDate()}.json.`)).toBeVisible();
  });

  test('deleting the account asks for the password, signs out, and the old credentials no longer sign in', async ({ page }) => {
    await page.setViewportSize(SCREEN.phone);
    const email = await newMember(page, 'delete');
    await openProfile(page, 'data');

    await page.getByLabel('Current password').fill('Not-The-One1');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
    await expect(dialog).toBeVisible();
    await shot(page, 'profile-delete-dialog-390.png');
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    await expect(page.getByRole('textbox', { name: 'Current password' })).toHaveAccessibleDescription('The password is wrong.');

    // Keeping the account does nothing.
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByRole('button', { name: 'Keep my account' }).click();
    await expect(dialog).toBeHidden();
    expect((await page.request.get('/api/v1/auth/me')).status()).toBe(200);

    await page.getByRole('button', { name: 'Delete my account' }).click();
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    await expect(page).toHaveURL(/#\/account\/create/);
    expect((await page.request.get('/api/v1/auth/me')).status()).toBe(401);

    await signInForm(page, email, PASSWORD);
    await expect(page.getByRole('alert')).toContainText('The email or password is wrong.');
  });
});
