import { admin, expect, SCREEN, signInAs, test } from './fixtures';

const SHOTS = 'test-results/screens/admin';

test.describe('admin jobs', () => {

  test('lists next and last runs; pause shows paused, resume schedules again, run now updates the last run', async ({ page }) => {
    await page.setViewportSize(SCREEN.wide);
    await signInAs(page, admin().email, admin().password);
    await page.goto('/#/admin/jobs');
    const table = page.getByRole('table', { name: 'Jobs' });
    const row = (name: string) => table.getByRole('row').filter({ hasText: name });
    const cell = (name: string, column: number) => row(name).getByRole('cell').nth(column);
    await expect(page.getByRole('tab', { name: 'Jobs' })).toHaveAttribute('aria-selected', 'true');
    for (const header of ['Name', 'State', 'Schedule', 'Next run', 'Last run', 'Failures']) await expect(table.getByRole('columnheader', { name: header })).toBeVisible();
    await expect(cell('nightly-backups', 1)).toHaveText('Scheduled');
    await expect(cell('nightly-backups', 3)).toHaveText(/\d{4}/);
    await expect(cell('deployment-tasks', 1)).toHaveText('On demand');
    await expect(row('deployment-tasks').getByRole('button')).toHaveCount(0);

    // Pause: no next run, the cron stays shown; resume brings the next run back.
    await page.getByRole('button', { name: 'Pause: mau-sampling' }).click();
    await expect(page.getByText('mau-sampling is paused: it will not run on its schedule until resumed.')).toBeVisible();
    await expect(cell('mau-sampling', 1)).toHaveText('Paused');
    await expect(cell('mau-sampling', 2)).not.toBeEmpty();
    await expect(cell('mau-sampling', 3)).toBeEmpty();
    await page.setViewportSize(SCREEN.phone);
    await page.screenshot({ path: `${SHOTS}/jobs-paused-390.png`, fullPage: true });
    await page.setViewportSize(SCREEN.wide);
    await page.getByRole('button', { name: 'Resume: mau-sampling' }).click();
    await expect(cell('mau-sampling', 1)).toHaveText('Scheduled');
    await expect(cell('mau-sampling', 3)).toHaveText(/\d{4}/);

    // Run now: the worker takes the job within seconds and the last run shows it (on a reload).
    await page.getByRole('button', { name: 'Run now: mau-sampling' }).click();
    await expect(page.getByText('mau-sampling will run in a moment.')).toBeVisible();
    await expect(async () => {
      await page.reload();
      await expect(cell('mau-sampling', 4)).toContainText('Completed', { timeout: 2_000 });
    }).toPass({ timeout: 45_000 });
    await page.screenshot({ path: `${SHOTS}/jobs-1440.png`, fullPage: true });
    await page.setViewportSize(SCREEN.phone);
    await page.screenshot({ path: `${SHOTS}/jobs-390.png`, fullPage: true });
  });
});
