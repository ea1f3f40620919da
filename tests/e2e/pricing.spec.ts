import type { Page } from '@playwright/test';
import { expect, SCREEN, test } from './fixtures';

const section = (page: Page, name: string) => page.getByRole('region', { name });
const card = (page: Page, sectionName: string, name: string | RegExp) => section(page, sectionName).getByRole('button', { name });
const total = (page: Page) => page.getByTestId('pricing-total');

test.describe('the public pricing calculator', () => {
  test('a visit loads no form code: neither the form schemas nor zod', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('.js')) scripts.push(new URL(r.url()).pathname);
    });
    await page.goto('/#/pricing');
    await expect(card(page, 'Plan', /Starter/)).toBeVisible();
    await page.waitForLoadState('networkidle');
    // The app's own chunk came (the list is the page's), and nothing of the forms did.
    expect(scripts.some((s) => /\/assets\/App-/.test(s))).toBe(true);
    expect(scripts.filter((s) => /\/assets\/(validation|authForms|authFormsLoader|zod|FormTextField)-/.test(s))).toEqual([]);
  });

  test('prices plans and options as the visitor picks them, monthly and yearly', async ({ page, request }) => {
    await page.setViewportSize(SCREEN.wide);
    await page.goto('/#/pricing');
    await expect(page).toHaveTitle('Pricing · Beacon');
    await expect(total(page)).toHaveText('Choose a plan');
    // Before a plan is chosen, options have no price yet and cannot be picked.
    await expect(card(page, 'Region', /Belgium/)).toContainText('Choose a plan to see price');
    await expect(card(page, 'Region', /Belgium/)).toBeDisabled();
    // The calculator leaves out the base and directory-sync features, and lists the fixed card.
    await expect(section(page, 'Features')).not.toContainText('Directory sync');
    await expect(section(page, 'Features')).not.toContainText('Core analytics');
    await expect(section(page, 'Features')).toContainText('Free during Early Access');
    // Plan cards: MAU from the code, abbreviated.
    await expect(card(page, 'Plan', /Starter/)).toContainText('1K monthly active users');
    await expect(card(page, 'Plan', /Enterprise Plus/)).toContainText('2.5M monthly active users');

    // The free plan: only the default region, no paid features.
    await card(page, 'Plan', /^Free/).click();
    await expect(total(page)).toHaveText('Free');
    await expect(card(page, 'Region', /Iowa/)).toHaveAttribute('aria-pressed', 'true');
    await expect(card(page, 'Region', /Belgium/)).toBeDisabled();
    await expect(card(page, 'Region', /Belgium/)).toContainText('Not available for this plan');
    await expect(card(page, 'Features', /Funnels/)).toBeDisabled();

    // The default paid plan, then options: the total follows each choice.
    await card(page, 'Plan', /Starter/).click();
    await expect(total(page)).toHaveText('$49/month');
    await card(page, 'Region', /Belgium/).click();
    await expect(total(page)).toHaveText('$59/month');
    await card(page, 'Features', /Funnels/).click();
    await card(page, 'Domain preference', /Custom domain/).click();
    await card(page, 'Data retention', /12 months/).click();
    await expect(total(page)).toHaveText('$108/month');
    await page.screenshot({ path: 'test-results/screens/pricing-1440.png', fullPage: true });

    // Yearly: 12 × 108 less 16%.
    await page.getByRole('button', { name: 'Yearly' }).click();
    await expect(total(page)).toHaveText('$1,088.64/year');
    await expect(page.getByText('16% off')).toBeVisible();
    await expect(card(page, 'Features', /Funnels/)).toContainText('$191.52/year');

    // The server prices the same order to the cent.
    const ids = await page.evaluate(async () => {
      const plans = (await (await fetch('/api/v1/plans/public')).json()).payload as { _id: string; code: string }[];
      const conf = (await (await fetch('/api/v1/plans/configurables/public/gcp')).json()).payload as {
        regions: { _id: string; code: string }[];
        features: { _id: string; code: string }[];
      };
      const f = (code: string) => conf.features.find((x) => x.code === code)?._id;
      return {
        plan: plans.find((p) => p.code === 'v3.mau_1_000_gcp.base')?._id,
        region: conf.regions.find((r) => r.code === 'europe-west1')?._id,
        features: [f('feature.funnels'), f('domain.custom'), f('retention.12m'), f('backup.daily')],
      };
    });
    const res = await request.post('/api/v1/deployments/pricing', {
      data: { plan: ids.plan, planConfig: { region: ids.region, features: ids.features }, payment: { term: { cycle: 'year' } } },
    });
    expect((await res.json()).payload.total).toEqual({ amount: '1088.64', currency: 'USD' });

    // Choosing another plan resets region, features, domain and retention.
    await card(page, 'Plan', /Basic/).click();
    await expect(card(page, 'Region', /Iowa/)).toHaveAttribute('aria-pressed', 'true');
    await expect(card(page, 'Features', /Funnels/)).toHaveAttribute('aria-pressed', 'false');
    await expect(card(page, 'Domain preference', /Hosted subdomain/)).toHaveAttribute('aria-pressed', 'true');
    await expect(card(page, 'Data retention', /6 months/)).toHaveAttribute('aria-pressed', 'true');
    await expect(total(page)).toHaveText('$997.92/year');
  });

  test('fits a phone, with the total always in view', async ({ page }) => {
    await page.setViewportSize(SCREEN.phone);
    await page.goto('/#/pricing');
    await card(page, 'Plan', /Growth/).click();
    await expect(total(page)).toHaveText('$149/month');
    await card(page, 'Features', /A\/B testing/).scrollIntoViewIfNeeded();
    await card(page, 'Features', /A\/B testing/).click();
    await expect(total(page)).toHaveText('$188/month');
    await expect(total(page)).toBeInViewport();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: 'test-results/screens/pricing-390.png' });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: 'test-results/screens/pricing-390-top.png' });
  });
});
