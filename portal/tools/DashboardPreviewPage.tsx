import './i18n';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

// The dashboard and its sample data load only here, after the page: the front door stays light.
const Preview = lazy(() => import('../../analytics/portal/sample/PreviewDashboard'));

/** /tools/dashboard-preview (SPEC §2 tools pages): the analytics dashboard with generated data, read-only, no sign-in. */
export default function DashboardPreviewPage() {
  const { t } = useTranslation();
  return (
    <>
      <Alert
        severity="info"
        sx={{ borderRadius: 0, alignItems: 'center', '& .MuiAlert-message': { flex: 1 } }}
        action={
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
            <Button variant="contained" size="small" component={RouterLink} to="/get-started">
              {t('tools.preview.order')}
            </Button>
            <Button size="small" component={RouterLink} to="/pricing">
              {t('tools.preview.pricing')}
            </Button>
          </Stack>
        }
      >
        {t('tools.preview.banner')}
      </Alert>
      <Suspense
        fallback={
          <Box role="status" sx={{ display: 'flex', gap: 2, alignItems: 'center', p: 4 }}>
            <CircularProgress size={24} /> {t('tools.preview.loading')}
          </Box>
        }
      >
        <Preview />
      </Suspense>
    </>
  );
}
