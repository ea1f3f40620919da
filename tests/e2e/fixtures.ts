import { test as base, expect } from '@playwright/test';

/** Every test talks to the server globalSetup started. */
export const test = base.extend({
  // eslint-disable-next-line no-empty-pattern -- Playwright requires the object pattern here.
  baseURL: async ({}, provide) => {
    await provide(process.env.BASE_URL);
  },
});
export { expect };

export const SCREEN = { phone: { width: 390, height: 844 }, wide: { width: 1440, height: 900 } } as const;
