import { expect, test } from './fixtures';
import { adminShots, asAdmin } from './adminPages';

test.describe('admin company filters', () => {
  test('an empty filtered list says the filters left nothing, and clears them', async ({ page }) => {
    await asAdmin(page);
    await page.goto('/#/admin/companies');
    await expect(page.getByText(/^Showing 1 to \d+ of \d+$/)).toBeVisible();
    // No company is created in the future.
    await page.getByLabel('Created from').fill('2999-01-01');
    await expect(page.getByText('No companies match these filters')).toBeVisible();
    await expect(page.getByText('No companies yet.')).toHaveCount(0);
    await adminShots(page, 'companies-filtered-empty');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page.getByText(/^Showing 1 to \d+ of \d+$/)).toBeVisible();
    await expect(page.getByLabel('Created from')).toHaveValue('');
  });
});
