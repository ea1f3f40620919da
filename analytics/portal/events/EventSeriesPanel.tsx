import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryFailure } from '../../../src/ui/QueryFailure';
import type { EventTotals, Period } from '../../dataProvider/dashboard';
import { DataTable } from '../../../src/ui/table/DataTable';
import { MetricCard } from '../../../src/ui/misc/MetricCard';
import { useAnalytics } from '../context';
import { daysOf } from '../period';
import { eventLabel, propertyLabel } from './eventNames';
import { useDashboardQuery } from '../../dataProvider/dashboard';

const EventChart = lazy(() => import('./EventChart'));

interface Row {
  id: string;
  label: string;
  count: number;
  sum: number;
  dur: number;
}

/** One event's totals, its daily trend (chart) and a table by day or by segment value. */
export function EventSeriesPanel({ appId, event, period, segment }: { appId: string; event: EventTotals[number]; period: Period; segment: string }) {
  const { t } = useTranslation();
  const { api } = useAnalytics();
  const series = useDashboardQuery(api, ['eventSeries', `${appId}:${event.key}:${period.from}:${period.to}:${segment}`], (a) => a.eventSeries(appId, event.key, { ...period, segment: segment || undefined }));
  const data = series.data;
  const points = useMemo(() => {
    const byDay = new Map(data?.days.map((d) => [d.day, d.count]) ?? []);
    return daysOf(period).map((day) => ({ day, value: byDay.get(day) ?? 0 }));
  }, [data, period]);
  const rows = useMemo<Row[]>(
    () =>
      segment
        ? (data?.values ?? []).map((v) => ({ id: v.value, label: v.value, count: v.count, sum: v.sum, dur: v.dur }))
        : (data?.days ?? []).map((d) => ({ id: d.day, label: d.day, count: d.count, sum: d.sum, dur: d.dur })),
    [data, segment],
  );
  if (series.error) return <QueryFailure error={series.error} />;
  const label = eventLabel(event);
  return (
    <>
      <Typography variant="h2" component="h2" sx={{ mb: 2 }}>
        {label}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(160px, 1fr))', mb: 2 }}>
        {(['count', 'sum', 'dur'] as const).map((p) => (
          <MetricCard key={p} label={propertyLabel(t, p, event)} value={data?.totals[p] ?? event.totals[p]} />
        ))}
      </Box>
      <Suspense fallback={<Typography color="text.secondary">{t('analytics.events.chartLoading')}</Typography>}>
        <EventChart points={points} label={`${t('analytics.events.chart')}: ${label}`} />
      </Suspense>
      <Box sx={{ mt: 2 }}>
        <DataTable<Row>
          id={`analytics-event-${segment ? 'segments' : 'days'}`}
          label={label}
          columns={[
            { id: 'label', header: segment ? t('analytics.events.value') : t('analytics.events.day'), value: (r) => r.label },
            { id: 'count', header: propertyLabel(t, 'count', event), value: (r) => r.count, align: 'right' },
            { id: 'sum', header: propertyLabel(t, 'sum', event), value: (r) => r.sum, align: 'right' },
            { id: 'dur', header: propertyLabel(t, 'dur', event), value: (r) => r.dur, align: 'right' },
          ]}
          source={{ kind: 'local', rows }}
          getRowId={(r) => r.id}
          exportName={`event-${event.key}`}
          canCreate={false}
          defaultSort={{ field: 'label', order: segment ? 'ASC' : 'DESC' }}
        />
      </Box>
    </>
  );
}
