// @vitest-environment happy-dom
import { cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import '../src/appI18n';
import { i18n } from '../src/i18n';
import { shortDate } from '../src/ui/servers/status';
import './adminI18n';
import { targetLabel } from './logs/targetLabel';
import { useServerLabels } from './serverLabels';

afterEach(cleanup);

const wrapper = ({ children }: { children: ReactNode }) => <I18nextProvider i18n={i18n}>{children}</I18nextProvider>;
const labels = () => renderHook(() => useServerLabels(), { wrapper }).result.current;
const t = i18n.t.bind(i18n) as (key: string, options?: Record<string, unknown>) => string;

describe('the admin area in the customer’s words', () => {
  it('says a server being deleted is being deleted, and until when', () => {
    const on = '2026-12-05T10:00:00.000Z';
    expect(labels().serverState({ status: 'running', terminationScheduledAt: null }, 'active')).toBe('Running');
    expect(labels().serverState({ status: 'running', terminationScheduledAt: on }, 'active')).toBe(`Running · Deleting on ${shortDate.format(new Date(on))}`);
    expect(labels().serverState({ status: 'deleted', terminationScheduledAt: on }, 'canceled')).toBe('Deleted');
  });

  it('reads a subscription being deleted as the customer’s billing does, never "Active"', () => {
    const on = '2026-12-05T10:00:00.000Z';
    const row = { free: false, status: 'running' as const, subscriptionStatus: 'active', terminationScheduledAt: on, scheduledChange: { action: 'cancel', effective_at: '2026-12-27T00:00:00.000Z' } };
    expect(labels().subscription(row)).toBe(`Deleting on ${shortDate.format(new Date(on))}; no further charge`);
    expect(labels().subscription({ ...row, terminationScheduledAt: null, scheduledChange: null })).toBe('Active');
  });

  it('writes cycles, amounts and who takes the payments as words', () => {
    expect(labels().cycle('month')).toBe('Monthly');
    expect(labels().cycle('year')).toBe('Yearly');
    expect(labels().perCycle('133', 'month')).toBe('$133.00 / month');
    expect(labels().perCycle('1596.5', 'year')).toBe('$1,596.50 / year');
    expect(labels().paymentProvider('stand-in')).not.toMatch(/paddle/i);
    expect(labels().paymentProvider('paddle')).toBe('Paddle');
  });

  it('names a log entry’s target, and never shows a whole UUID for one it cannot name', () => {
    const id = '3f2a9c1e-7b4d-4e8f-9a0b-1c2d3e4f5a6b';
    expect(targetLabel({ targetId: id, targetName: 'Leaving Server' }, t)).toBe('Leaving Server');
    const unnamed = targetLabel({ targetId: id, targetName: null }, t);
    expect(unnamed).not.toContain(id);
    expect(unnamed).toContain('3f2a9c1e');
    expect(targetLabel({ targetId: 'nightly-backups', targetName: null }, t)).toBe('Nightly backups');
  });
});
