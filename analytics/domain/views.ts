import { z } from 'zod';

/** One page or screen in the Views list over a period: its visits, total and average time (seconds). */
export const viewTotalsSchema = z.object({ view: z.string(), visits: z.number(), duration: z.number(), averageDuration: z.number() });
export type ViewTotals = z.infer<typeof viewTotalsSchema>;
export const viewListSchema = z.array(viewTotalsSchema);

/** Average time per visit; a view whose durations came without a visit in the period counts as one visit. */
export const averageDuration = (visits: number, duration: number) => duration / Math.max(1, visits);

/**
 * At most this many distinct views per app and day are recorded; a new one past it is not (its
 * raw event is kept). View names come from the customer's URLs, so without a bound any visitor
 * could add rows without end. Concurrent requests may pass it by a few.
 */
export const MAX_VIEWS_PER_DAY = 1_000;

/** At most this many views are listed, the most visited first. */
export const MAX_LISTED_VIEWS = 500;
