import Edit from '@mui/icons-material/Edit';
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

/** Plan, region, billing and options; "Edit" opens the wizard in edit mode (server-builder/{id}). */
export function PlanPanel({ deployment: d, editTo, canEdit }: { deployment: DeploymentPopulated; editTo: string; canEdit: boolean }) {
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
