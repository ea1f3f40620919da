import { useTranslation } from 'react-i18next';
import { DateRangePicker } from '../../../src/ui/date/DateRangePicker';
import type { DateRangeValue } from '../../../src/ui/date/dateRangeRules';

// Data is kept per day; 'all time' would ask for every day since 2010, so it is not offered.
const SHORTCUTS = ['yesterday', 'today', '7days', '30days', '60days', 'thisMonth', 'thisYear'] as const;

/** The shared date-range picker, as the events screens use it (SPEC §2 shared widgets). */
export function PeriodPicker({ value, onChange }: { value: DateRangeValue; onChange: (value: DateRangeValue) => void }) {
  const { t } = useTranslation();
  return <DateRangePicker label={t('analytics.period')} value={value} onChange={onChange} shortcuts={SHORTCUTS} maxRangeDays={400} />;
}
