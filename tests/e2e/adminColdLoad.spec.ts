import { expect, openSignIn, test } from './fixtures';
import { adminShots, asAdmin } from './adminPages';
import { waitForMail } from './mailbox';

const PASSWORD = 'Tr1cky-Lantern';
const tokenOf = (link: string) => new URL(link.replace('/#/', '/')).searchParams.get('token') ?? '';

test.describe('a platform admin without a company', () => {

  test('reloads and bookmarks the admin area instead of being asked to create a company', async ({ browser, page }) => {
    // A verified user with no company, made a platform admin by the seeded admin.
    const email = `ops-${Date.now()}@e2e.example.com`;
    const ops = await browser.newContext({ baseURL: process.env.BASE_URL });
    const opsPage = await ops.newPage();
    expect((await opsPage.request.post('/api/v1/users', { data: { firstName: 'Oona', lastName: 'Ops', email, password: PASSWORD } })).status()).toBe(201);
    const mail = await waitForMail(email, 'Verify');
    expect((await opsPage.request.post('/api/v1/auth/verify', { data: { token: tokenOf(mail.link) } })).ok()).toBe(true);
    await asAdmin(page);
    const query = encodeURIComponent(JSON.stringify({ q: email }));
    const found = (await (await page.request.get(`/api/v1/admin/users?filter=${query}`)).json()) as { payload: { _id: string; email: string }[] };
    const id = found.payload.find((u) => u.email === email)?._id ?? '';
    expect((await page.request.put(`/api/v1/admin/users/${id}`, { data: { isAdmin: true } })).ok()).toBe(true);
    await opsPage.request.post('/api/v1/auth/signout');

    // Signing in with nowhere to go still asks for a company: the customer side needs one.
    await openSignIn(opsPage);
    await opsPage.getByLabel('Email').fill(email);
    await opsPage.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await opsPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(opsPage).toHaveURL(/#\/account\/company/);

    // The admin area, opened and then reloaded: it stays, through /loading.
    await opsPage.goto('/#/admin/companies');
    await expect(opsPage.getByRole('tab', { name: 'Companies' })).toHaveAttribute('aria-selected', 'true');
    await opsPage.reload();
    await expect(opsPage.getByText('Admin Mode')).toBeVisible();
    await expect(opsPage.getByRole('tab', { name: 'Companies' })).toHaveAttribute('aria-selected', 'true');
    await expect(opsPage).toHaveURL(/#\/admin\/companies/);
    await adminShots(opsPage, 'cold-load-no-company');

    // A bookmark opened in a new tab lands where it points.
    const bookmark = await ops.newPage();
    await bookmark.goto('/#/admin/users');
    await expect(bookmark.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');
    await expect(bookmark.getByRole('heading', { name: /create your company/i })).toHaveCount(0);
    await ops.close();
  });
});
