import Edit from '@mui/icons-material/Edit';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { DeploymentPopulated } from '../../../dataProvider/deployments';
import { nextBillText } from '../../dashboard/ServerCard';
import { Section } from '../../../src/ui/servers/Section';

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: '96px minmax(0, 1fr)', gap: 1 }}>
      <Typography color="text.secondary">{label}</Typography>
      <Box sx={{ minWidth: 0 }}>{children}</Box>
    </Box>
  );
}

/**
 * Plan, region, billing and options; "Edit" opens the wizard in edit mode (server-builder/{id}). A
 * change of plan that costs money shows as waiting for its payment: the plan shown is the one the
 * server really has until it is paid.
 */
export function PlanPanel({ deployment: d, editTo, canEdit, scope }: { deployment: DeploymentPopulated; editTo: string; canEdit: boolean; scope: string }) {
  const { t } = useTranslation();
  const editable = canEdit && d.status === 'running' && !d.terminationScheduledAt;
  return (
    <Section
      title={t('deployment.plan')}
      testId="plan-panel"
      action={
        canEdit && (
          <Button size="small" startIcon={<Edit />} component={RouterLink} to={editTo} disabled={!editable}>
            {t('deployment.edit')}
          </Button>
        )
      }
    >
      {d.pendingPlan && (
        <Alert
          severity="warning"
          data-testid="pending-plan"
          action={
            canEdit && (
              <Button color="inherit" size="small" component={RouterLink} to={`${scope}/management/billing`}>
                {t('deployment.pendingPlan.pay')}
              </Button>
            )
          }
        >
          {t('deployment.pendingPlan.message', { plan: d.pendingPlan.name, current: d.plan.name })}
        </Alert>
      )}
      <Row label={t('deployment.planName')}>
        <Typography sx={{ fontWeight: 600 }}>{d.plan.name}</Typography>
      </Row>
      <Row label={t('deployment.region')}>
        <Typography>{d.region?.name ?? '—'}</Typography>
      </Row>
      <Row label={t('deployment.cycle')}>
        <Typography>
          {t(`deployment.cycles.${d.subscription.payment.term.cycle}`)} · {nextBillText(d, t)}
        </Typography>
      </Row>
      <Row label={t('deployment.options')}>
        {d.features.length === 0 ? (
          <Typography color="text.secondary">{t('deployment.noOptions')}</Typography>
        ) : (
          <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
            {d.features.map((f) => (
              <Chip key={f._id} size="small" variant="outlined" label={f.name} />
            ))}
          </Box>
        )}
      </Row>
    </Section>
  );
}
