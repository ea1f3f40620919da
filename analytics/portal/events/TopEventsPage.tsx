import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryFailure } from '../../../src/ui/QueryFailure';
import { TOP_EVENT_WINDOWS } from '../../domain/constants';
import type { TopEvents } from '../../domain/schemas';
import { formatCount } from '../../../src/ui/numbers';
import { useAnalytics } from '../context';
import { NoApp } from '../NoApp';
import { ScreenHeading } from '../ScreenHeading';
import { eventLabel } from './eventNames';
import { useDashboardQuery } from '../../dataProvider/dashboard';

/** Events › Top events: the most frequent events of the last 24 hours or 30 days, with their share. */
export function TopEventsPage() {
  const { t } = useTranslation();
  const { api, app } = useAnalytics();
  const [window, setWindow] = useState<TopEvents['window']>('30days');
  const appId = app?._id ?? '';
  const top = useDashboardQuery(api, ['topEvents', `${appId}:${window}`], app ? (a) => a.topEvents(appId, window) : null);
  if (!app) return <NoApp />;
  return (
    <>
      <ScreenHeading titleKey="analytics.top.title" />
      <Tabs value={window} onChange={(_, next: TopEvents['window']) => setWindow(next)} sx={{ mb: 2 }}>
        {TOP_EVENT_WINDOWS.map((w) => (
          <Tab key={w} value={w} label={t(`analytics.top.window${w}`)} />
        ))}
      </Tabs>
      <QueryFailure error={top.error} />
      <Paper variant="outlined" sx={{ p: 2 }}>
        {top.data && !top.data.events.length && <Typography color="text.secondary">{t('analytics.top.empty')}</Typography>}
        <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2 }}>
          {top.data?.events.map((e, i) => (
            <Box component="li" key={e.key}>
              <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, mb: 0.5 }}>
                <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                  {i + 1}. {eventLabel(e)}
                </Typography>
                <Typography color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
                  {formatCount(e.count)} · {Math.round(e.share * 1000) / 10}%
                </Typography>
              </Box>
              <LinearProgress variant="determinate" value={Math.min(100, e.share * 100)} aria-label={`${t('analytics.top.share')} ${eventLabel(e)}`} />
            </Box>
          ))}
        </Box>
      </Paper>
    </>
  );
}
