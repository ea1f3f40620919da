/**
 * The one rule for what the MAU tier means: when the company's admins are warned (mails and
 * the in-app notice) and what happens past the tier. No zod, so the front door can show it.
 */

/** A MAU month (its `mau_history` row's `starts_at`) starts at midnight UTC on the 1st. */
export const mauMonthStart = (now: Date): Date => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

/** Shares (%) of the tier at which the company's admins are warned. */
export const MAU_ALERT_SHARES = [80, 100] as const;
export const MAU_ALERTS = ['share80', 'share100', 'runOut'] as const;
export type MauAlert = (typeof MAU_ALERTS)[number];
export type MauAlertSettings = Record<MauAlert, boolean>;
export const DEFAULT_MAU_ALERTS: MauAlertSettings = { share80: true, share100: true, runOut: true };

/**
 * Past the tier (SPEC names no cut-off): data keeps flowing and is counted, nothing is cut off,
 * the company's admins are warned and offered the next tier. Screens show it by this key.
 */
export const PAST_TIER_RULE = { dataKeepsFlowing: true, cutOff: false, messageKey: 'pricingPage.pastTierRule' } as const;

/** The highest share of the tier reached (0: none yet); a tier of 0 warns of nothing. */
export function mauShareReached(used: number, limit: number): 0 | (typeof MAU_ALERT_SHARES)[number] {
  if (limit <= 0) return 0;
  return MAU_ALERT_SHARES.filter((share) => used * 100 >= limit * share).at(-1) ?? 0;
}

/** The share of the tier used, in whole percent as people read it: 5,300 of 5,000 is 106%, never capped at 100. */
export function mauSharePercent(used: number, limit: number): number {
  return limit > 0 ? Math.floor((used * 100) / limit) : 0;
}

/** The alerts whose condition holds now, each a reason on its own. */
export function mauAlertConditions(used: number, limit: number, forecast: { runOutOn: string | null } | null): MauAlert[] {
  const share = mauShareReached(used, limit);
  const out: MauAlert[] = [];
  if (share >= 80) out.push('share80');
  if (share >= 100) out.push('share100');
  else if (forecast?.runOutOn) out.push('runOut');
  return out;
}

/**
 * Which alert to send now, at most one of each kind a period: `send` is the one to mail (the
 * strongest due), `settle` every kind now dealt with, to store as sent (a jump from 70% to 100%
 * mails once, not twice; a 100% mail makes the run-out one moot). Turned-off kinds are neither.
 */
export function dueMauAlerts(input: { used: number; limit: number; forecast: { runOutOn: string | null } | null; sent: readonly MauAlert[]; settings: MauAlertSettings }): { send: MauAlert | null; settle: MauAlert[] } {
  const holds = mauAlertConditions(input.used, input.limit, input.forecast);
  if (holds.includes('share100')) holds.push('runOut');
  const open = holds.filter((a) => !input.sent.includes(a) && input.settings[a]);
  const strongest = (['share100', 'runOut', 'share80'] as const).find((a) => open.includes(a) && (a !== 'runOut' || !holds.includes('share100'))) ?? null;
  return { send: strongest, settle: strongest ? open : [] };
}
