import { admin, expect, SCREEN, signInAs, test } from './fixtures';

const SHOTS = 'test-results/screens/admin';

test('app reviews: the shared admin list (search, columns, page size, pager, export)', async ({ page, request }) => {
  const tag = `Reviewed${Date.now()}`;
  for (const n of [1, 2]) {
    const res = await request.post('/api/v1/tools/app-profile-reviews', { data: { appName: `${tag} App ${n}`, platform: 'ios', storeUrl: `https://apps.example.com/${tag}-${n}`, email: `review${n}@e2e.example.com` } });
    expect(res.status()).toBe(201);
  }
  await page.setViewportSize(SCREEN.wide);
  await signInAs(page, admin().email, admin().password);
  await page.goto('/#/admin/appProfileReviews');
  await expect(page.getByRole('tab', { name: 'App reviews' })).toHaveAttribute('aria-selected', 'true');
  const table = page.getByRole('table', { name: 'App reviews' });
  // Newest first.
  await expect(table.getByRole('row').nth(1)).toContainText(`${tag} App 2`);
  await page.getByLabel('Search').fill(`${tag} App 1`);
  await expect(page.getByText('Showing 1 to 1 of 1')).toBeVisible();
  await expect(table.getByRole('link', { name: `https://apps.example.com/${tag}-1` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Columns' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export' })).toBeVisible();
  await expect(page.getByText('Rows per page')).toBeVisible();
  await page.getByLabel('Search').fill('');
  await expect(table.getByRole('row').filter({ hasText: tag })).toHaveCount(2);
  await page.screenshot({ path: `${SHOTS}/app-reviews-1440.png`, fullPage: true });
  await page.setViewportSize(SCREEN.phone);
  await page.screenshot({ path: `${SHOTS}/app-reviews-390.png`, fullPage: true });
});
