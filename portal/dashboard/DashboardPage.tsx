import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useDeploymentsPage } from '../../dataProvider/deployments';
import { useSelection } from '../../src/companySelection';
import '../../src/serversI18n';
import { EmptyView } from '../../src/ui/EmptyView';
import { QueryFailure } from '../../src/ui/QueryFailure';
import { PageHeading } from '../../src/ui/PageHeading';
import { lastPage } from '../../src/ui/table/tableQuery';
import { CreateServerButton } from '../deployments/CreateServerButton';
import { serverPollMs } from '../deployments/polling';
import { useScopePrefix } from '../deployments/scope';
import { useCatalogueOnEnter } from '../deployments/useCatalogueOnEnter';
import { DashboardAside } from './DashboardAside';
import { useAnnouncement } from '../../dataProvider/content/queries';
import { fallbackAnnouncement } from './dashboardContent';
import { ServerCard } from './ServerCard';
import { ServerCardsPager } from './ServerCardsPager';
import { usePaymentSuccessNotice } from './usePaymentSuccessNotice';

/** Cards on one dashboard page: two columns of six. */
export const SERVER_CARDS_PER_PAGE = 12;

/** Dashboard (SPEC §2): the announcement, the company's servers at a glance, the welcome block and resources. */
export default function DashboardPage() {
  usePaymentSuccessNotice();
  const { t } = useTranslation();
  const { companyId, company } = useSelection();
  const scope = useScopePrefix();
  useCatalogueOnEnter(companyId);
  const [page, setPage] = useState(1);
  const [pageOf, setPageOf] = useState(companyId);
  // Another company starts on its first page (state adjusted while rendering, React's pattern).
  if (pageOf !== companyId) {
    setPageOf(companyId);
    setPage(1);
  }
  const listed = useDeploymentsPage(companyId ? { company: companyId, page, perPage: SERVER_CARDS_PER_PAGE } : null, serverPollMs);
  const servers = listed.data?.rows;
  // Servers deleted elsewhere can leave this page past the last: go to the last one there is.
  const last = listed.data ? lastPage(listed.data.total, SERVER_CARDS_PER_PAGE) : page;
  if (page > last) setPage(last);
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
          {companyId && !servers && !listed.error && <CircularProgress aria-label={t('titles.loading')} />}
          {!servers && <QueryFailure error={listed.error} retry={{ label: t('deployment.retry'), onClick: () => void listed.refetch() }} />}
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
              {listed.data && listed.data.total > SERVER_CARDS_PER_PAGE && (
                <ServerCardsPager page={page} perPage={SERVER_CARDS_PER_PAGE} total={listed.data.total} disabled={listed.isPlaceholderData} onPage={setPage} />
              )}
            </>
          )}
        </Box>
        <DashboardAside />
      </Box>
    </>
  );
}
