import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { getPublicPlans } from '../../dataProvider/catalogue';
import { ordersApi, type DeploymentDto } from '../../dataProvider/orders';
import { useSelection } from '../../src/companySelection';
import { PageHeading } from '../../src/ui/PageHeading';
import { CreateServerButton } from './CreateServerButton';
import '../wizard/i18n';

/**
 * Deployments (SPEC §2 logged-in routes): the selected project's servers and "Create server".
 * The full deployment pages (detail, actions) come with the running-servers issue.
 */
export default function DeploymentsPage() {
  const { t } = useTranslation();
  const { companyId, projectId } = useSelection();
  const scopeKey = `${companyId ?? ''}/${projectId ?? ''}`;
  const [loaded, setLoaded] = useState<{ key: string; rows: DeploymentDto[] } | null>(null);
  const [failed, setFailed] = useState(false);
  // Plan names by code, for people who do not read plan codes; the code shows until they load.
  const [planNames, setPlanNames] = useState<Map<string, string>>(new Map());
  useEffect(() => {
    let live = true;
    getPublicPlans().then(
      (plans) => live && setPlanNames(new Map(plans.map((p) => [p.code, p.name]))),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  // Rows of another company or project are not shown while the new ones load.
  const rows = loaded?.key === scopeKey ? loaded.rows : null;
  useEffect(() => {
    if (!companyId) return;
    let live = true;
    ordersApi.list(companyId, projectId).then(
      (list) => live && setLoaded({ key: `${companyId}/${projectId ?? ''}`, rows: list }),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [companyId, projectId]);
  const scope = companyId && projectId ? `/c/${companyId}/p/${projectId}` : '';
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap', mb: 2 }}>
        <PageHeading titleKey="titles.deployments" />
        <CreateServerButton />
      </Box>
      {failed && <Alert severity="error">{t('deploymentsPage.loadFailed')}</Alert>}
      {!failed && !rows && companyId && <CircularProgress aria-label={t('titles.loading')} />}
      {rows?.length === 0 && <Typography color="text.secondary">{t('deploymentsPage.empty')}</Typography>}
      <Box component="ul" aria-label={t('titles.deployments')} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2 }}>
        {rows?.map((d) => (
          <Paper component="li" key={d._id} variant="outlined" data-testid="deployment-row" sx={{ p: 2, display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
            <Box sx={{ flex: 1, minWidth: 200 }}>
              <Typography sx={{ fontWeight: 700 }}>{d.name}</Typography>
              <Typography variant="body2" color="text.secondary">
                {planNames.get(d.subscription.planCode) ?? d.subscription.planCode} · {d.flags.free ? t('deploymentsPage.free') : `$${d.billing.recurring.amount}/${t(`wizard.cycle.${d.billing.cycle}`)}`}
              </Typography>
            </Box>
            <Chip size="small" color={d.billing.status === 'active' ? 'success' : d.billing.status === 'pending' ? 'default' : 'warning'} label={t(`deploymentsPage.subscription.${d.billing.status}`)} data-testid="subscription-status" />
            <Link component={RouterLink} to={`${scope}/server-builder/${d._id}/choose-plan`}>
              {t('deploymentsPage.edit')}
            </Link>
          </Paper>
        ))}
      </Box>
    </>
  );
}
