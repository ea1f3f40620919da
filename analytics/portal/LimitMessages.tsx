import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { API_CONFIGURATIONS_ROUTE } from '../domain/constants';
import { useAnalytics } from './context';
import { useDashboardQuery } from '../dataProvider/dashboard';

const LIMIT_OF = { event_keys: 'eventKeys', segments: 'segmentsPerEvent', segment_values: 'valuesPerSegment' } as const;

/** SPEC §8: a message for each ingestion limit that dropped data, linking to the API configurations page. */
export function LimitMessages({ appId }: { appId: string }) {
  const { t } = useTranslation();
  const { api, basePath } = useAnalytics();
  const { data } = useDashboardQuery(api, ['limits', appId], (a) => a.limits(appId));
  const reached = data?.drops.filter((d) => d.count > 0) ?? [];
  if (!data || !reached.length) return null;
  return (
    <Stack spacing={1} sx={{ mb: 2 }}>
      {reached.map((drop) => (
        <Alert key={drop.kind} severity="warning">
          {t(`analytics.limits.${drop.kind}`, { limit: data.limits[LIMIT_OF[drop.kind]], count: drop.count })}{' '}
          <Link component={RouterLink} to={`${basePath}${API_CONFIGURATIONS_ROUTE}`}>
            {t('analytics.limits.adjust')}
          </Link>
        </Alert>
      ))}
    </Stack>
  );
}
