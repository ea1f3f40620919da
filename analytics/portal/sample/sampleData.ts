import dayjs from 'dayjs';

/**
 * Generated sample data for the dashboard preview: the same every visit (a seeded generator), dated
 * relative to today so the charts always show a recent, lively period.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    // mulberry32: small, fast, good enough for believable noise.
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SampleEvent {
  key: string;
  name: string | null;
  /** Mean count per day; weekends are quieter. */
  daily: number;
  /** Mean sum per occurrence (0: the event carries no sum). */
  sum: number;
  /** Mean duration per occurrence in seconds (0: none). */
  dur: number;
  segments: Record<string, string[]>;
  visible?: boolean;
}

export const SAMPLE_DAYS = 400;

export const SAMPLE_APPS = [
  { _id: '00000000-0000-4000-8000-000000000a01', name: 'Lantern Notes (iOS)', type: 'mobile', category: 'Productivity', timezone: 'America/New_York', key: 'c3f1a9e07b2d4c5e8f6a1b2c3d4e5f60' },
  { _id: '00000000-0000-4000-8000-000000000a02', name: 'Lantern Web', type: 'web', category: 'Productivity', timezone: 'Europe/Berlin', key: '9a8b7c6d5e4f30211f2e3d4c5b6a7980' },
] as const;

export const SAMPLE_EVENTS: SampleEvent[] = [
  { key: 'app_open', name: 'App opened', daily: 1800, sum: 0, dur: 0, segments: { platform: ['iOS', 'Android', 'Web'], version: ['3.1', '3.2', '3.3'] } },
  { key: 'note_created', name: 'Note created', daily: 950, sum: 0, dur: 42, segments: { template: ['blank', 'meeting', 'journal', 'todo'] } },
  { key: 'note_shared', name: 'Note shared', daily: 210, sum: 0, dur: 0, segments: { channel: ['link', 'email', 'slack'] } },
  { key: 'search', name: 'Search', daily: 640, sum: 0, dur: 3, segments: { results: ['none', '1-10', '10+'] } },
  { key: 'purchase', name: 'Purchase', daily: 38, sum: 9.99, dur: 0, segments: { plan: ['monthly', 'yearly'], country: ['US', 'DE', 'GB', 'FR', 'JP'] } },
  { key: 'subscription_cancelled', name: 'Subscription cancelled', daily: 6, sum: 0, dur: 0, segments: { reason: ['price', 'features', 'other'] } },
  { key: 'onboarding_step', name: 'Onboarding step', daily: 420, sum: 0, dur: 25, segments: { step: ['welcome', 'import', 'invite', 'done'] } },
  { key: 'sync_error', name: null, daily: 24, sum: 0, dur: 0, segments: { code: ['timeout', 'conflict', 'auth'] }, visible: false },
  { key: 'reminder_set', name: 'Reminder set', daily: 170, sum: 0, dur: 0, segments: { repeat: ['none', 'daily', 'weekly'] } },
  { key: 'export_pdf', name: 'Exported to PDF', daily: 55, sum: 0, dur: 6, segments: { pages: ['1', '2-5', '6+'] } },
];

export interface SampleDay {
  day: string;
  count: number;
  sum: number;
  dur: number;
  /** Count per segment name, then per value. */
  segments: Record<string, Record<string, number>>;
}

/** Daily rows of one event of one app, oldest first, ending today. */
export function eventDays(appIndex: number, eventIndex: number, now = Date.now()): SampleDay[] {
  const event = SAMPLE_EVENTS[eventIndex];
  if (!event) return [];
  const random = seededRandom(1000 * (appIndex + 1) + eventIndex);
  const scale = appIndex === 0 ? 1 : 0.45;
  const today = dayjs(now).startOf('day');
  const days: SampleDay[] = [];
  for (let i = SAMPLE_DAYS - 1; i >= 0; i -= 1) {
    const date = today.subtract(i, 'day');
    const weekend = date.day() === 0 || date.day() === 6 ? 0.7 : 1;
    // Slow growth over the period, plus noise.
    const growth = 0.75 + (0.5 * (SAMPLE_DAYS - i)) / SAMPLE_DAYS;
    const count = Math.max(0, Math.round(event.daily * scale * weekend * growth * (0.8 + 0.4 * random())));
    const segments: Record<string, Record<string, number>> = {};
    for (const [name, values] of Object.entries(event.segments)) {
      const weights = values.map((_, j) => 1 / (j + 1));
      const total = weights.reduce((a, b) => a + b, 0);
      segments[name] = Object.fromEntries(values.map((v, j) => [v, Math.round((count * (weights[j] ?? 0)) / total)]));
    }
    days.push({ day: date.format('YYYY-MM-DD'), count, sum: Math.round(count * event.sum * 100) / 100, dur: Math.round(count * event.dur), segments });
  }
  return days;
}
