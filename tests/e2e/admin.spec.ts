import { readFileSync } from 'node:fs';
import { admin, expect, SCREEN, signInAs, test } from './fixtures';

test.describe('admin area', () => {
  test('lists users from the server, searches them and exports the query as a streamed CSV', async ({ page }) => {
    await page.setViewportSize(SCREEN.wide);
    await signInAs(page, admin().email, admin().password);
    await page.goto('/#/admin/users');
    await expect(page.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');
    const table = page.getByRole('table', { name: 'Users' });
    await expect(table.getByRole('cell', { name: admin().email })).toBeVisible();
    await expect(page.getByText(/^Showing 1 to \d+ of \d+$/)).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/admin-users-1440.png' });

    await page.getByRole('searchbox').fill('admin@e2e');
    await expect(page.getByText('Showing 1 to 1 of 1')).toBeVisible();

    await page.getByRole('button', { name: /export/i }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: /csv/i }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^users-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = readFileSync(await file.path(), 'utf8').trimEnd().split('\n');
    expect(lines[0]).toContain('Email');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(admin().email);
  });
});
