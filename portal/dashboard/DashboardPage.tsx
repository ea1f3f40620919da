import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { deploymentsApi, type DeploymentView } from '../../dataProvider/deployments';
import { useSelection } from '../../src/companySelection';
import '../../src/serversI18n';
import { EmptyView } from '../../src/ui/EmptyView';
import { failureMessage } from '../../src/ui/form/messages';
import { PageHeading } from '../../src/ui/PageHeading';
import { CreateServerButton } from '../deployments/CreateServerButton';
import { useServerPolling } from '../deployments/polling';
import { useScopePrefix } from '../deployments/scope';
import { isBusy } from '../../src/ui/servers/status';
import { useCatalogueOnEnter } from '../deployments/useCatalogueOnEnter';
import { DashboardAside } from './DashboardAside';
import { fallbackAnnouncement, useAnnouncement } from './dashboardContent';
import { ServerCard } from './ServerCard';
import { usePaymentSuccessNotice } from './usePaymentSuccessNotice';

const loadServers = async (companyId: string) => (await deploymentsApi.byCompany(companyId)).deployments;
const anyBusy = (servers: DeploymentView[]) => servers.some(isBusy);

/** Dashboard (SPEC §2): the announcement, the company's servers at a glance, the welcome block and resources. */
export default function DashboardPage() {
  usePaymentSuccessNotice();
  const { t } = useTranslation();
  const { companyId, company } = useSelection();
  const scope = useScopePrefix();
  useCatalogueOnEnter(companyId);
  const polled = useServerPolling(companyId, loadServers, anyBusy);
  const servers = polled.data;
  const announcement = useAnnouncement().data;
  const news = announcement === undefined ? null : (announcement ?? fallbackAnnouncement(t));
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap', mb: { xs: 2, sm: 0 } }}>
        <PageHeading titleKey="titles.dashboard" />
        <CreateServerButton />
      </Box>
      {news && (
        <Alert severity="info" data-testid="announcement" sx={{ mb: 3 }}>
          <AlertTitle>{news.title}</AlertTitle>
          {news.message}
          {news.link && (
            <>
              {' '}
              <Link href={news.link.url} target="_blank" rel="noopener noreferrer" color="inherit" sx={{ fontWeight: 700 }}>
                {news.link.label}
              </Link>
            </>
          )}
        </Alert>
      )}
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 2fr) minmax(280px, 1fr)' }, alignItems: 'start' }}>
        <Box component="section" aria-labelledby="servers-title" sx={{ minWidth: 0 }}>
          <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap', mb: 1.5 }}>
            <Typography id="servers-title" variant="h2" sx={{ fontSize: '1.25rem' }}>
              {t('dashboard.serversTitle')}
            </Typography>
            <Link component={RouterLink} to={`${scope}/deployments`}>
              {t('dashboard.allServers')}
            </Link>
          </Box>
          {!companyId && <Typography color="text.secondary">{t('dashboard.noCompany')}</Typography>}
          {companyId && !servers && !polled.error && <CircularProgress aria-label={t('titles.loading')} />}
          {polled.error !== undefined && !servers && (
            <Alert
              severity="error"
              role="alert"
              action={
                <Button color="inherit" size="small" onClick={() => void polled.reload()}>
                  {t('deployment.retry')}
                </Button>
              }
            >
              {failureMessage(polled.error, t) || t('servers.loadFailed')}
            </Alert>
          )}
          {servers?.length === 0 && (
            <Paper variant="outlined">
              <EmptyView title={t('servers.empty')} message={t('servers.emptyMessage')} canCreate={false} />
            </Paper>
          )}
          {servers && servers.length > 0 && (
            <>
              <Typography color="text.secondary" sx={{ mb: 1.5 }}>
                {t('dashboard.serversIntro', { company: company?.name ?? '' })}
              </Typography>
              <Box component="ul" aria-label={t('dashboard.serversTitle')} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' } }}>
                {servers.map((d) => (
                  <ServerCard key={d._id} deployment={d} to={`${scope}/deployments/${d._id}`} />
                ))}
              </Box>
            </>
          )}
        </Box>
        <DashboardAside />
      </Box>
    </>
  );
}
