import { z } from 'zod';

/**
 * The SDK behaviour settings Countly's server hands the SDKs at `/o/sdk?method=sc` (answer
 * `{ v: 2, t, c }`), by the short keys the SDKs read. A key left out keeps the SDK's own default
 * (or what the developer configured in the app), so an app with no settings answers `c: {}`, as
 * Countly's server does: sending the defaults would override the developer's configuration.
 */
const flag = z.boolean();
const count = (max: number) => z.number().int().min(0).max(max);
const names = z.array(z.string().min(1).max(128)).max(500);

export const sdkSettingsSchema = z
  .object({
    /** Tracking at all, and networking at all. */
    tracking: flag,
    networking: flag,
    /** Sessions, crashes, views, custom events, location. */
    st: flag,
    crt: flag,
    vt: flag,
    cet: flag,
    lt: flag,
    /** Consent required. */
    cr: flag,
    /** Request queue size, event batch size, session update interval (seconds). */
    rqs: count(100_000),
    eqs: count(10_000),
    sui: count(86_400),
    /** Content zone: enabled, refresh, its check interval (seconds). */
    ecz: flag,
    rcz: flag,
    czi: count(86_400),
    /** How often the SDK fetches these settings again (hours, at least 4 in the SDKs). */
    scui: count(8_760),
    /** Limits: key length, value size, segmentation values, breadcrumbs, stack trace lines and line length. */
    lkl: count(10_000),
    lvs: count(100_000),
    lsv: count(10_000),
    lbc: count(10_000),
    ltlpt: count(10_000),
    ltl: count(100_000),
    /** Back-off when the server is slow: enabled, accepted timeout (s), queue share, request age (h), duration (s). */
    bom: flag,
    bom_at: count(3_600),
    bom_rqp: z.number().min(0).max(1),
    bom_ra: count(8_760),
    bom_d: count(86_400),
    /** Event, user property and segmentation block and allow lists. */
    eb: names,
    ew: names,
    upb: names,
    upw: names,
    sb: names,
    sw: names,
    esb: z.record(z.string().min(1).max(128), names),
    esw: z.record(z.string().min(1).max(128), names),
  })
  .partial()
  .strict();
export type SdkSettings = z.infer<typeof sdkSettingsSchema>;

/** Countly's defaults, as the SDKs apply them when `c` leaves a key out (shown beside the app's settings). */
export const SDK_SETTINGS_DEFAULTS = {
  tracking: true,
  networking: true,
  st: true,
  crt: true,
  vt: true,
  cet: true,
  lt: true,
  cr: false,
  rqs: 1_000,
  eqs: 100,
  sui: 60,
  ecz: false,
  rcz: true,
  czi: 30,
  scui: 4,
  lkl: 128,
  lvs: 256,
  lsv: 100,
  lbc: 100,
  ltlpt: 30,
  ltl: 200,
  bom: true,
  bom_at: 10,
  bom_rqp: 0.5,
  bom_ra: 24,
  bom_d: 60,
} as const satisfies SdkSettings;

/** The dashboard's view of an app's SDK settings: what it set, and when (the answer's `t`). */
export const sdkSettingsAnswerSchema = z.object({ settings: sdkSettingsSchema, defaults: sdkSettingsSchema, updatedAt: z.string() });
export type SdkSettingsAnswer = z.infer<typeof sdkSettingsAnswerSchema>;

/** What `/o/sdk?method=sc` answers, as Countly's server: version 2, the settings' time (ms), the settings. */
export interface SdkConfigAnswer {
  v: 2;
  t: number;
  c: SdkSettings;
}
