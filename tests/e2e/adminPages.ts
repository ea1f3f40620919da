import type { Page } from '@playwright/test';
import { admin, expect, SCREEN, signInAs } from './fixtures';

const SHOTS = 'test-results/screens/admin';

/** Signs the built-in platform admin in, at a width. */
export async function asAdmin(page: Page, width: keyof typeof SCREEN = 'wide') {
  await page.setViewportSize(SCREEN[width]);
  await signInAs(page, admin().email, admin().password);
}

/** Both widths of the admin page in view, for looking at; the phone width never scrolls sideways. */
export async function adminShots(page: Page, name: string) {
  await page.setViewportSize(SCREEN.wide);
  await page.screenshot({ path: `${SHOTS}/${name}-1440.png`, fullPage: true });
  await page.setViewportSize(SCREEN.phone);
  await page.screenshot({ path: `${SHOTS}/${name}-390.png`, fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(SCREEN.phone.width);
  await page.setViewportSize(SCREEN.wide);
}
