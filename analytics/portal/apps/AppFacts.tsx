import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { AppDto } from '../../domain/schemas';

const date = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-US') : '—');

/** What the form does not edit: ids, the app key the SDKs send, dates and who may use the app. */
export function AppFacts({ app }: { app: AppDto }) {
  const { t } = useTranslation();
  const people = (list: AppDto['admins']) => (list.length ? list.map((m) => m.fullName).join(', ') : '—');
  const facts: [string, string][] = [
    [t('analytics.apps.appKey'), app.key],
    [t('analytics.apps.appId'), app._id],
    [t('analytics.apps.creator'), app.createdBy?.fullName ?? '—'],
    [t('analytics.apps.created'), date(app.createdAt)],
    [t('analytics.apps.edited'), date(app.updatedAt)],
    [t('analytics.apps.lastData'), date(app.lastDataAt)],
    [t('analytics.apps.globalAdmins'), people(app.globalAdmins)],
    [t('analytics.apps.admins'), people(app.admins)],
    [t('analytics.apps.users'), people(app.users)],
  ];
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'minmax(110px, auto) 1fr', columnGap: 2, rowGap: 1 }}>
        {facts.map(([label, value]) => (
          <Box key={label} sx={{ display: 'contents' }}>
            <Typography component="dt" color="text.secondary">
              {label}
            </Typography>
            <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere', fontFamily: label === t('analytics.apps.appKey') ? 'monospace' : undefined }} data-testid={label === t('analytics.apps.appKey') ? 'app-key' : undefined}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
    </Paper>
  );
}
