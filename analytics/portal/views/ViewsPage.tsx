import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryFailure } from '../../../src/ui/QueryFailure';
import type { DateRangeValue } from '../../../src/ui/date/dateRangeRules';
import { EmptyView } from '../../../src/ui/EmptyView';
import { formatCount } from '../../../src/ui/numbers';
import { useAnalytics } from '../context';
import { PeriodPicker } from '../events/PeriodPicker';
import { NoApp } from '../NoApp';
import { toPeriod } from '../period';
import { ScreenHeading } from '../ScreenHeading';
import { useDashboardQuery } from '../../dataProvider/dashboard';

/** Analytics › Views: the app's pages and screens over the period, with their visits and time. */
export function ViewsPage() {
  const { t } = useTranslation();
  const { api, app } = useAnalytics();
  const [range, setRange] = useState<DateRangeValue>('30days');
  // 'All time' starts where the app's data can: its creation.
  const since = app ? Date.parse(app.createdAt) : undefined;
  const period = toPeriod(range, since);
  const appId = app?._id ?? '';
  const views = useDashboardQuery(api, ['listViews', `${appId}:${period.from}:${period.to}`], app ? (a) => a.listViews(appId, period) : null);
  if (!app) return <NoApp />;
  const time = (seconds: number) => {
    const s = Math.round(seconds);
    return t('analytics.views.time', { minutes: Math.floor(s / 60), seconds: String(s % 60).padStart(2, '0') });
  };
  const list = views.data ?? [];

  return (
    <>
      <ScreenHeading titleKey="analytics.views.title">
        <PeriodPicker value={range} onChange={setRange} since={since} />
      </ScreenHeading>
      <QueryFailure error={views.error} />
      {views.data && !list.length && (
        <Paper variant="outlined">
          <EmptyView title={t('analytics.views.empty')} message={t('analytics.views.emptyBody')} />
        </Paper>
      )}
      {list.length > 0 && (
        <Paper variant="outlined">
          <TableContainer sx={{ overflowX: 'auto', maxWidth: '100%' }} tabIndex={0} aria-label={t('analytics.views.title')}>
            <Table size="small" sx={{ minWidth: 480 }}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('analytics.views.view')}</TableCell>
                  <TableCell align="right">{t('analytics.views.visits')}</TableCell>
                  <TableCell align="right">{t('analytics.views.averageTime')}</TableCell>
                  <TableCell align="right">{t('analytics.views.totalTime')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {list.map((v) => (
                  <TableRow key={v.view}>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{v.view}</TableCell>
                    <TableCell align="right">{formatCount(v.visits)}</TableCell>
                    <TableCell align="right">{time(v.averageDuration)}</TableCell>
                    <TableCell align="right">{time(v.duration)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </Paper>
      )}
    </>
  );
}
