import { describe, expect, it } from 'vitest';
import { DEPLOYMENT_STATUSES, SUBSCRIPTION_STATUSES } from '../../src/domain/orders/schemas';
import { analyticsAccessFor, analyticsAllows, ingestionFor } from './serverAccess';

const now = new Date('2026-05-10T12:00:00Z');
const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000);
const active = { status: 'active' as const, pastDueSince: null };

describe('analyticsAccessFor', () => {
  it('gives everything only to a live server with a free, paid or within-grace subscription', () => {
    expect(analyticsAccessFor({ status: 'running', subscription: active }, 7, now)).toBe('full');
    expect(analyticsAccessFor({ status: 'running', subscription: { status: 'past_due', pastDueSince: daysAgo(6) } }, 7, now)).toBe('full');
    expect(analyticsAccessFor({ status: 'running', subscription: { status: 'past_due', pastDueSince: daysAgo(8) } }, 7, now)).toBe('read');
    expect(analyticsAccessFor({ status: 'running', subscription: { status: 'past_due', pastDueSince: null } }, 7, now)).toBe('read');
    expect(analyticsAccessFor({ status: 'running', subscription: { status: 'pending', pastDueSince: null } }, 7, now)).toBe('read');
    expect(analyticsAccessFor({ status: 'running', subscription: null }, 7, now)).toBe('none');
  });

  it('keeps everything for a free server while the payment of its change to a paid plan is awaited', () => {
    expect(analyticsAccessFor({ status: 'running', subscription: { status: 'pending', pastDueSince: null, awaitsPaidChange: true } }, 7, now)).toBe('full');
    expect(analyticsAccessFor({ status: 'paused', subscription: { status: 'pending', pastDueSince: null, awaitsPaidChange: true } }, 7, now)).toBe('read');
    expect(analyticsAccessFor({ status: 'provisioned', subscription: { status: 'pending', pastDueSince: null, awaitsPaidChange: true } }, 7, now)).toBe('none');
  });

  it('lets a paused server be read, and gives nothing to an unpaid order or a deleted server', () => {
    expect(analyticsAccessFor({ status: 'paused', subscription: active }, 7, now)).toBe('read');
    expect(analyticsAccessFor({ status: 'paused', subscription: { status: 'past_due', pastDueSince: daysAgo(30) } }, 7, now)).toBe('read');
    expect(analyticsAccessFor({ status: 'provisioned', subscription: { status: 'pending', pastDueSince: null } }, 7, now)).toBe('none');
    expect(analyticsAccessFor({ status: 'deleted', subscription: active }, 7, now)).toBe('none');
    expect(analyticsAccessFor({ status: 'error_deleting', subscription: active }, 7, now)).toBe('none');
  });

  it('never gives more than either the status or the subscription allows', () => {
    const rank = { none: 0, read: 1, full: 2 };
    for (const status of DEPLOYMENT_STATUSES) {
      const alone = analyticsAccessFor({ status, subscription: active }, 7, now);
      for (const sub of SUBSCRIPTION_STATUSES) {
        const level = analyticsAccessFor({ status, subscription: { status: sub, pastDueSince: daysAgo(1) } }, 7, now);
        expect(rank[level]).toBeLessThanOrEqual(rank[alone]);
        if (sub !== 'active' && sub !== 'past_due') expect(level).not.toBe('full');
      }
    }
  });

  it('allows writing only at full, reading at read or full', () => {
    expect([analyticsAllows('full', 'write'), analyticsAllows('read', 'write'), analyticsAllows('none', 'write')]).toEqual([true, false, false]);
    expect([analyticsAllows('full', 'read'), analyticsAllows('read', 'read'), analyticsAllows('none', 'read')]).toEqual([true, true, false]);
  });
});

describe('ingestionFor', () => {
  it('asks the SDKs to send again after a restart or a restore, when the subscription takes data', () => {
    expect(ingestionFor({ status: 'restarting', subscription: active }, 7, now)).toEqual({ take: 'wait', retryAfterSeconds: 30 });
    expect(ingestionFor({ status: 'restoring', subscription: active }, 7, now)).toEqual({ take: 'wait', retryAfterSeconds: 120 });
    expect(ingestionFor({ status: 'restarting', subscription: { status: 'past_due', pastDueSince: daysAgo(30) } }, 7, now)).toEqual({ take: 'refuse' });
  });

  it('takes data only with full access otherwise', () => {
    expect(ingestionFor({ status: 'running', subscription: active }, 7, now)).toEqual({ take: 'accept' });
    expect(ingestionFor({ status: 'error_restarting', subscription: active }, 7, now)).toEqual({ take: 'accept' });
    expect(ingestionFor({ status: 'paused', subscription: active }, 7, now)).toEqual({ take: 'refuse' });
    expect(ingestionFor({ status: 'error_restoring', subscription: active }, 7, now)).toEqual({ take: 'refuse' });
  });
});
