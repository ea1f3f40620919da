import { useTranslation } from 'react-i18next';
import { DateRangePicker } from '../../../src/ui/date/DateRangePicker';
import type { DateRangeValue } from '../../../src/ui/date/dateRangeRules';

// SPEC §9's shortcuts; 'All time' starts at the app's creation (`since`), where its data begins.
const SHORTCUTS = ['yesterday', 'today', '7days', '30days', '60days', 'thisMonth', 'thisYear', 'allTime'] as const;

/** The shared date-range picker, as the events screens use it (SPEC §2 shared widgets). */
export function PeriodPicker({ value, onChange, since }: { value: DateRangeValue; onChange: (value: DateRangeValue) => void; since?: number }) {
  const { t } = useTranslation();
  return <DateRangePicker label={t('analytics.period')} value={value} onChange={onChange} shortcuts={SHORTCUTS} maxRangeDays={400} earliest={since} />;
}
