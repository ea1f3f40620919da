import { defineConfig } from '@playwright/test';

/** Browser tests run in Debian's Chromium against the built product, started by globalSetup. */
/** Files that run a schedule over every server of the product. */
const PLATFORM_WIDE = /(hourlyBackups|adminJobs|forecast)\.spec\.ts$/;
/** Files that order no server, so those schedules cannot touch what they check. */
const NO_SERVERS = /(accounts|firstRun|adminColdLoad|adminFilters|adminReviews|apiDocs|google|invited|management|passkeys|profile|widgets)\.spec\.ts$/;
/**
 * The two longest files: the server journey, which waits for the minute's termination run, and the
 * wizard. Queued first, so neither starts late and ends its phase alone.
 */
const LONGEST = /(servers|wizard)\.spec\.ts$/;
/** The projects of the first phase: every file that orders servers. */
const FIRST_PHASE = ['longest', 'browser'];

/** The features Playwright (1.65) turns off in Chromium (its chromiumSwitches), kept when we turn off more. */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
];

export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/globalSetup.ts',
  fullyParallel: false,
  // Two files at a time: each test signs up accounts of its own, so files do not share what they
  // change. Four were barely faster on a quiet hour (275 to 304 s against 322) and, on a slow one,
  // loaded the two cores so that journeys timed out.
  workers: 2,
  projects: [
    { name: 'longest', testMatch: LONGEST },
    { name: 'browser', testIgnore: [PLATFORM_WIDE, LONGEST, NO_SERVERS] },
    // These run schedules for every server (backups, MAU sampling): a backup task would make another
    // file's server busy mid-journey, so they run after every file that orders servers, one at a
    // time. They mostly wait for the product's jobs, so the files that order none run beside them.
    // Both wait on the first phase, so a failure there skips them (Playwright skips the dependents).
    { name: 'platform-wide', testMatch: PLATFORM_WIDE, dependencies: FIRST_PHASE, workers: 1 },
    { name: 'no-servers', testMatch: NO_SERVERS, dependencies: FIRST_PHASE },
  ],
  retries: 0,
  // Budgets, not waits: a test ends as soon as what it waits for shows. Generous because the same
  // machine runs two to three times slower on a busy hour (unit tests 71 s one day, 137 to 181 s
  // the next; a dozen journeys then took 40 to 58 s), and four files share its two cores.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        // Headless Chromium builds two hidden address-bar popups (web pages of its own, each in a
        // renderer) for every window, and each test's context is a window: they cost 40% of the
        // processor time of opening a context and the sign-in page (4.7 s of CPU against 2.8).
        // Chromium reads only the last --disable-features, so Playwright's own list is repeated.
        `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'].join(',')}`,
      ],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
