import { PENDING_ORDER_CLEANUP_DAYS, PENDING_ORDER_REMINDER_DAYS } from '../constants';

const DAY_MS = 86_400_000;

/** When an order never paid is removed. */
export const pendingOrderRemovalAt = (orderedAt: Date): Date => new Date(orderedAt.getTime() + PENDING_ORDER_CLEANUP_DAYS * DAY_MS);

/** Whole days since the order, for "ordered 3 days ago". */
export const pendingOrderAgeDays = (orderedAt: Date, now: Date): number => Math.max(0, Math.floor((now.getTime() - orderedAt.getTime()) / DAY_MS));

/**
 * What is due for an order still unpaid at `now`: its removal once PENDING_ORDER_CLEANUP_DAYS have
 * passed, else the reminders due so far. `remindersSent` counts those already mailed; one mail
 * covers any missed (a worker down for a day sends one mail, not two).
 */
export function pendingOrderDue(orderedAt: Date, now: Date, remindersSent: number): { remove: true } | { remove: false; remind: number | null } {
  if (now.getTime() >= pendingOrderRemovalAt(orderedAt).getTime()) return { remove: true };
  const due = PENDING_ORDER_REMINDER_DAYS.filter((days) => now.getTime() >= orderedAt.getTime() + days * DAY_MS).length;
  return { remove: false, remind: due > remindersSent ? due : null };
}
