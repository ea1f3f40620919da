import type { TFunction } from 'i18next';

/** A grace period in the largest whole unit that fits: "7 days", "2 hours", "30 seconds". */
export function gracePeriodText(seconds: number, t: TFunction): string {
  const units = [
    ['days', 86_400],
    ['hours', 3_600],
    ['minutes', 60],
  ] as const;
  for (const [unit, size] of units) {
    if (seconds >= size && seconds % size === 0) return t(`deployment.period.${unit}`, { count: seconds / size });
  }
  for (const [unit, size] of units) {
    if (seconds >= size) return t(`deployment.period.${unit}`, { count: Math.round(seconds / size) });
  }
  return t('deployment.period.seconds', { count: seconds });
}
