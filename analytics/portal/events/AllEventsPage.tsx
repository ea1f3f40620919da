import EditIcon from '@mui/icons-material/Edit';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryFailure } from '../../../src/ui/QueryFailure';
import type { DateRangeValue } from '../../../src/ui/date/dateRangeRules';
import { EmptyView } from '../../../src/ui/EmptyView';
import { formatCount } from '../../../src/ui/numbers';
import { canAdminApp, useAnalytics } from '../context';
import { LimitMessages } from '../LimitMessages';
import { NoApp } from '../NoApp';
import { toPeriod } from '../period';
import { ScreenHeading } from '../ScreenHeading';
import { EditEventDrawer } from './EditEventDrawer';
import { eventLabel } from './eventNames';
import { EventSeriesPanel } from './EventSeriesPanel';
import { PeriodPicker } from './PeriodPicker';
import { useDashboardQuery } from '../../dataProvider/dashboard';

/** Events › All events: every event of the app, its trend and totals for the period, by segment on demand. */
export function AllEventsPage() {
  const { t } = useTranslation();
  const { api, app, session, writable } = useAnalytics();
  const [range, setRange] = useState<DateRangeValue>('30days');
  const [picked, setPicked] = useState<string | null>(null);
  const [segment, setSegment] = useState('');
  const [editing, setEditing] = useState(false);
  // 'All time' starts where the app's data can: its creation.
  const since = app ? Date.parse(app.createdAt) : undefined;
  const period = toPeriod(range, since);
  const appId = app?._id ?? '';
  const events = useDashboardQuery(api, ['listEvents', `${appId}:${period.from}:${period.to}`], app ? (a) => a.listEvents(appId, period) : null);
  if (!app) return <NoApp />;
  const list = events.data ?? [];
  const current = list.find((e) => e.key === picked) ?? list[0] ?? null;
  const canEdit = writable && canAdminApp(session, app._id);

  return (
    <>
      <ScreenHeading titleKey="analytics.events.title">
        <PeriodPicker value={range} onChange={setRange} since={since} />
      </ScreenHeading>
      <LimitMessages appId={app._id} />
      <QueryFailure error={events.error} />
      {events.data && !list.length && (
        <Paper variant="outlined">
          <EmptyView title={t('analytics.events.empty')} message={t('analytics.events.emptyBody')} />
        </Paper>
      )}
      {current && (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '260px 1fr' }, alignItems: 'start' }}>
          <Paper variant="outlined">
            <List dense aria-label={t('analytics.events.pick')} sx={{ maxHeight: { xs: 220, md: 560 }, overflow: 'auto' }}>
              {list.map((e) => (
                <ListItemButton
                  key={e.key}
                  selected={e.key === current.key}
                  onClick={() => {
                    setPicked(e.key);
                    setSegment('');
                  }}
                >
                  <ListItemText primary={eventLabel(e)} secondary={formatCount(e.totals.count)} />
                  {!e.visible && <Chip size="small" label={t('analytics.events.hidden')} />}
                </ListItemButton>
              ))}
            </List>
          </Paper>
          <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }}>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', mb: 2 }}>
              <TextField select size="small" label={t('analytics.events.segmentBy')} value={segment} onChange={(e) => setSegment(e.target.value)} sx={{ minWidth: 200 }}>
                <MenuItem value="">{t('analytics.events.noSegment')}</MenuItem>
                {current.segments
                  .filter((s) => !current.omittedSegments.includes(s))
                  .map((s) => (
                    <MenuItem key={s} value={s}>
                      {s}
                    </MenuItem>
                  ))}
              </TextField>
              <Box sx={{ flex: 1 }} />
              {canEdit && (
                <Button startIcon={<EditIcon />} onClick={() => setEditing(true)}>
                  {t('analytics.events.editEvent')}
                </Button>
              )}
            </Box>
            <EventSeriesPanel appId={app._id} event={current} period={period} segment={segment} />
          </Paper>
        </Box>
      )}
      {editing && current && (
        <EditEventDrawer
          appId={app._id}
          event={current}
          onClose={(saved) => {
            setEditing(false);
            if (saved) void events.refetch();
          }}
        />
      )}
    </>
  );
}
