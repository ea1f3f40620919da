import type { DeploymentStatus, SubscriptionStatus } from '../../src/domain/orders/schemas';

/**
 * What a server's analytics allow, from its state (SPEC §3 deployment statuses) and its
 * subscription's: `full` (ingestion and the whole dashboard), `read` (the data kept can be read;
 * nothing is written and nothing is ingested) or `none`. Ingestion, the dashboard's landing and
 * every dashboard call take it from here, so the rule is in one place.
 */
export const ANALYTICS_ACCESS_LEVELS = ['full', 'read', 'none'] as const;
export type AnalyticsAccessLevel = (typeof ANALYTICS_ACCESS_LEVELS)[number];

export interface ServerAnalyticsState {
  status: DeploymentStatus;
  /** Null when the server has no subscription row (never the case for an ordered server). */
  subscription: {
    status: SubscriptionStatus;
    pastDueSince: Date | null;
    /** A free server changed to a paid plan keeps its free plan (and stays `pending`) until that payment is confirmed. */
    awaitsPaidChange?: boolean;
  } | null;
}

/**
 * By the server's status. Up and serving: full (a failed change or restart leaves it running).
 * Paused, being restored, or waiting for the cloud's answer: its data is readable. Never
 * provisioned (an order waiting for its payment, or still being set up) or deleted: nothing.
 */
const BY_STATUS: Record<DeploymentStatus, AnalyticsAccessLevel> = {
  running: 'full',
  modifying: 'full',
  restarting: 'full',
  error_modifying: 'full',
  error_restarting: 'full',
  error_pausing: 'full',
  paused: 'read',
  restoring: 'read',
  error_restoring: 'read',
  comm_error: 'read',
  provisioned: 'none',
  initializing: 'none',
  error_initializing: 'none',
  deleted: 'none',
  error_deleting: 'none',
};

const RANK: Record<AnalyticsAccessLevel, number> = { none: 0, read: 1, full: 2 };

/**
 * By the subscription: free and paid-up ones (`active`) and those past due within the grace
 * period allow everything, and so does a free server waiting for the payment of a change to a
 * paid plan (it still runs on its free plan); past due beyond grace, paused, canceled, or a new
 * order awaiting its payment (`pending`) allow reading what was collected while it was paid for.
 */
function bySubscription(subscription: ServerAnalyticsState['subscription'], graceDays: number, now: Date): AnalyticsAccessLevel {
  if (!subscription) return 'none';
  switch (subscription.status) {
    case 'active':
      return 'full';
    case 'past_due':
      return subscription.pastDueSince && now.getTime() - subscription.pastDueSince.getTime() <= graceDays * 86_400_000 ? 'full' : 'read';
    case 'pending':
      return subscription.awaitsPaidChange ? 'full' : 'read';
    case 'paused':
    case 'canceled':
      return 'read';
  }
}

/** The lower of what the server's status and its subscription allow. */
export function analyticsAccessFor(state: ServerAnalyticsState, graceDays: number, now: Date = new Date()): AnalyticsAccessLevel {
  const byStatus = BY_STATUS[state.status];
  const bySub = bySubscription(state.subscription, graceDays, now);
  return RANK[byStatus] <= RANK[bySub] ? byStatus : bySub;
}

/**
 * Statuses during which a server is drained rather than closed: ingestion answers 503 with a
 * `Retry-After` of this many seconds, and the SDKs keep their requests and send them again then.
 * A restart (and a paused server starting again) takes about a boot; a restore takes longer.
 */
export const DRAIN_RETRY_AFTER_SECONDS: Partial<Record<DeploymentStatus, number>> = { restarting: 30, restoring: 120 };

/** What ingestion does with a request for a server: take it, ask the SDK to send it again later, or refuse it. */
export type IngestionRule = { take: 'accept' } | { take: 'wait'; retryAfterSeconds: number } | { take: 'refuse' };

/**
 * Ingestion's rule, the one place it is decided: a drained server whose subscription takes data
 * asks for the data again after the drain; otherwise data is taken only with full access.
 */
export function ingestionFor(state: ServerAnalyticsState, graceDays: number, now: Date = new Date()): IngestionRule {
  const drain = DRAIN_RETRY_AFTER_SECONDS[state.status];
  if (drain !== undefined) return bySubscription(state.subscription, graceDays, now) === 'full' ? { take: 'wait', retryAfterSeconds: drain } : { take: 'refuse' };
  return analyticsAccessFor(state, graceDays, now) === 'full' ? { take: 'accept' } : { take: 'refuse' };
}

/** Whether a level allows what is asked: reading (read or full), or writing and ingesting (full only). */
export const analyticsAllows = (level: AnalyticsAccessLevel, need: 'read' | 'write'): boolean => (need === 'read' ? level !== 'none' : level === 'full');
