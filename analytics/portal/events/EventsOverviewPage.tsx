import SettingsIcon from '@mui/icons-material/Settings';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DateRangeValue } from '../../../src/ui/date/dateRangeRules';
import { EmptyView } from '../../../src/ui/EmptyView';
import { MetricCard } from '../../../src/ui/misc/MetricCard';
import { canAdminApp, useAnalytics } from '../context';
import { LimitMessages } from '../LimitMessages';
import { NoApp } from '../NoApp';
import { toPeriod } from '../period';
import { ScreenHeading } from '../ScreenHeading';
import { eventLabel, propertyLabel } from './eventNames';
import { OverviewConfigDialog } from './OverviewConfigDialog';
import { PeriodPicker } from './PeriodPicker';
import { useDashboardQuery } from '../../dataProvider/dashboard';
import { QueryFailure } from '../../../src/ui/QueryFailure';

const grid = { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(3, 1fr)', lg: 'repeat(4, 1fr)' }, mb: 3 } as const;

/** Events › Overview: the period's headline numbers and the tiles an admin chose (at most 12). */
export function EventsOverviewPage() {
  const { t } = useTranslation();
  const { api, app, session, writable } = useAnalytics();
  const [range, setRange] = useState<DateRangeValue>('30days');
  const [configuring, setConfiguring] = useState(false);
  // 'All time' starts where the app's data can: its creation.
  const since = app ? Date.parse(app.createdAt) : undefined;
  const period = toPeriod(range, since);
  const key = `${app?._id}:${period.from}:${period.to}`;
  const appId = app?._id ?? '';
  const events = useDashboardQuery(api, ['listEvents', key], app ? (a) => a.listEvents(appId, period) : null);
  const sessions = useDashboardQuery(api, ['sessions', key], app ? (a) => a.sessions(appId, period) : null);
  const overview = useDashboardQuery(api, ['overview', key], app ? (a) => a.overview(appId, period) : null);
  if (!app) return <NoApp />;
  const canConfigure = writable && canAdminApp(session, app._id);
  const visible = events.data ?? [];
  const total = visible.reduce((sum, e) => sum + e.totals.count, 0);
  const days = sessions.data?.days ?? [];
  const byKey = new Map(visible.map((e) => [e.key, e]));

  return (
    <>
      <ScreenHeading titleKey="analytics.overview.title">
        <PeriodPicker value={range} onChange={setRange} since={since} />
        {canConfigure && (
          <Button variant="outlined" startIcon={<SettingsIcon />} onClick={() => setConfiguring(true)}>
            {t('analytics.overview.configure')}
          </Button>
        )}
      </ScreenHeading>
      <LimitMessages appId={app._id} />
      <QueryFailure error={events.error ?? overview.error} sx={{ mb: 2 }} />
      <Box sx={grid}>
        <MetricCard label={t('analytics.overview.totalEvents')} value={total} />
        <MetricCard label={t('analytics.overview.distinctEvents')} value={visible.length} />
        <MetricCard label={t('analytics.overview.sessions')} value={days.reduce((s, d) => s + d.sessions, 0)} />
        <MetricCard label={t('analytics.overview.newUsers')} value={days.reduce((s, d) => s + d.newUsers, 0)} />
      </Box>
      {overview.data && overview.data.tiles.length > 0 ? (
        <Box sx={grid} aria-label={t('analytics.nav.overview')} role="list">
          {overview.data.tiles.map((tile) => (
            <Box role="listitem" key={`${tile.eventKey}:${tile.property}`}>
              <MetricCard label={`${tile.name || tile.eventKey} · ${propertyLabel(t, tile.property, byKey.get(tile.eventKey))}`} value={tile.total} />
            </Box>
          ))}
        </Box>
      ) : (
        overview.data && (
          <Box sx={{ bgcolor: 'background.paper', borderRadius: 1, border: 1, borderColor: 'divider' }}>
            <EmptyView title={t('analytics.overview.empty')} message={canConfigure ? t('analytics.overview.emptyBody') : t('analytics.overview.adminOnly')} />
          </Box>
        )
      )}
      {!canConfigure && writable && overview.data && overview.data.tiles.length > 0 && (
        <Typography variant="body2" color="text.secondary">
          {t('analytics.overview.adminOnly')}
        </Typography>
      )}
      {configuring && (
        <OverviewConfigDialog
          appId={app._id}
          events={visible.map((e) => ({ key: e.key, label: eventLabel(e) }))}
          tiles={overview.data?.tiles.map(({ eventKey, property }) => ({ eventKey, property })) ?? []}
          onClose={(saved) => {
            setConfiguring(false);
            if (saved) void overview.refetch();
          }}
        />
      )}
    </>
  );
}
