import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PENDING_ORDER_CLEANUP_DAYS } from '../constants';
import { pendingOrderAgeDays, pendingOrderDue, pendingOrderRemovalAt } from './pendingOrders';

const DAY = 86_400_000;
const ordered = new Date('2026-11-26T10:00:00Z');
const at = (days: number) => new Date(ordered.getTime() + days * DAY);

describe('orders never paid', () => {
  it('a reminder after a day and a day before the removal, the removal after the stated days', () => {
    expect(pendingOrderDue(ordered, at(0.5), 0)).toEqual({ remove: false, remind: null });
    expect(pendingOrderDue(ordered, at(1), 0)).toEqual({ remove: false, remind: 1 });
    expect(pendingOrderDue(ordered, at(3), 1)).toEqual({ remove: false, remind: null });
    expect(pendingOrderDue(ordered, at(PENDING_ORDER_CLEANUP_DAYS - 1), 1)).toEqual({ remove: false, remind: 2 });
    expect(pendingOrderDue(ordered, at(PENDING_ORDER_CLEANUP_DAYS - 0.01), 2)).toEqual({ remove: false, remind: null });
    expect(pendingOrderDue(ordered, at(PENDING_ORDER_CLEANUP_DAYS), 2)).toEqual({ remove: true });
    expect(pendingOrderRemovalAt(ordered)).toEqual(at(PENDING_ORDER_CLEANUP_DAYS));
  });

  it('missed reminders make one mail, never one already sent', () => {
    expect(pendingOrderDue(ordered, at(PENDING_ORDER_CLEANUP_DAYS - 1), 0)).toEqual({ remove: false, remind: 2 });
    fc.assert(
      fc.property(fc.double({ min: 0, max: PENDING_ORDER_CLEANUP_DAYS * 2, noNaN: true }), fc.integer({ min: 0, max: 2 }), (days, sent) => {
        const due = pendingOrderDue(ordered, at(days), sent);
        if (due.remove) return days >= PENDING_ORDER_CLEANUP_DAYS;
        return days < PENDING_ORDER_CLEANUP_DAYS && (due.remind === null || due.remind > sent);
      }),
    );
  });

  it('age in whole days', () => {
    expect(pendingOrderAgeDays(ordered, at(0.9))).toBe(0);
    expect(pendingOrderAgeDays(ordered, at(3.2))).toBe(3);
    expect(pendingOrderAgeDays(ordered, at(-1))).toBe(0);
  });
});
