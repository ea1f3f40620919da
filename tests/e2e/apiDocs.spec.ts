import { expect, SCREEN, test } from './fixtures';

test.describe('the API reference', () => {
  test('renders the OpenAPI document at /api/v1/docs with the sign-in operation', async ({ page }) => {
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    await page.setViewportSize(SCREEN.wide);
    await page.goto('/api/v1/docs');
    await expect(page).toHaveURL(/\/api\/v1\/docs\/$/);
    // The sidebar lists operations by tag and path: open the auth group and find sign-in.
    const sidebar = page.getByRole('complementary', { name: 'Sidebar for Beacon API' });
    await expect(sidebar).toBeVisible({ timeout: 20_000 });
    await sidebar.getByRole('button', { name: 'Open Group - auth' }).click();
    const signIn = sidebar.getByRole('link', { name: /^\/api\/v1\/auth\/signin HTTP Method: POST$/ });
    await expect(signIn).toBeVisible();
    await signIn.click();
    // The operation's request body comes from the same zod schema as the sign-in form.
    await expect(page.getByText('authCode').first()).toBeVisible();
    expect(blocked).toEqual([]);
    await page.screenshot({ path: 'test-results/screens/api-docs-1440.png' });
  });
});
