import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HealthCheckDto, HealthProbe } from '../../domain/deployments/schemas';
import { Section } from './Section';
import { dateTime } from './status';

/** Checks shown before "Show all". */
const SHOWN = 5;

const latency = (ms: number, t: TFunction) => t('deployment.healthChecks.latency', { ms: ms < 10 ? ms.toFixed(1) : Math.round(ms).toString() });

/** One probe in words: its name and latency, or that it failed. */
function ProbeText({ probe, t }: { probe: HealthProbe; t: TFunction }) {
  return (
    <Box component="li" data-testid="health-probe" data-probe={probe.name} data-ok={probe.ok} sx={{ color: probe.ok ? 'text.secondary' : 'error.main', whiteSpace: 'nowrap' }}>
      {t(`deployment.healthChecks.probe.${probe.name}`)} {latency(probe.latencyMs, t)}
      {!probe.ok && ` · ${t('deployment.healthChecks.failed')}`}
    </Box>
  );
}

function CheckLine({ check, t }: { check: HealthCheckDto; t: TFunction }) {
  return (
    <Box component="li" data-testid="health-check" data-healthy={check.healthy} sx={{ display: 'grid', gap: 0.5, borderLeft: 3, borderColor: check.healthy ? 'success.main' : 'error.main', pl: 1.5 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Chip size="small" variant="outlined" color={check.healthy ? 'success' : 'error'} label={t(`deployment.health.${check.healthy ? 'healthy' : 'unhealthy'}`)} />
        <Typography variant="caption" color="text.secondary" component="time" dateTime={check.checkedAt}>
          {dateTime.format(new Date(check.checkedAt))}
        </Typography>
      </Box>
      {check.reason && (
        <Typography variant="body2" color="error.main" sx={{ overflowWrap: 'anywhere' }} data-testid="health-reason">
          {check.reason}
        </Typography>
      )}
      <Box component="ul" aria-label={t('deployment.healthChecks.probes')} sx={{ listStyle: 'none', p: 0, m: 0, display: 'flex', flexWrap: 'wrap', columnGap: 2, rowGap: 0.25, typography: 'caption' }}>
        {check.probes.map((p) => (
          <ProbeText key={p.name} probe={p} t={t} />
        ))}
      </Box>
    </Box>
  );
}

/**
 * A server's last health checks, newest first: when, healthy or why not ("ingestion answered 503
 * for 3 checks"), and each probe of the real path with its latency. The customer's and the admin's
 * server pages show it alike.
 */
export function HealthChecksPanel({ checks }: { checks: HealthCheckDto[] | undefined }) {
  const { t } = useTranslation();
  const [all, setAll] = useState(false);
  const listId = useId();
  const shown = all ? checks : checks?.slice(0, SHOWN);
  return (
    <Section title={t('deployment.healthChecks.title')} testId="health-checks-panel">
      <Typography variant="body2" color="text.secondary">
        {t('deployment.healthChecks.intro')}
      </Typography>
      {checks?.length === 0 && <Typography color="text.secondary">{t('deployment.healthChecks.none')}</Typography>}
      {shown && shown.length > 0 && (
        <Box component="ul" id={listId} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
          {shown.map((c) => (
            <CheckLine key={c._id} check={c} t={t} />
          ))}
        </Box>
      )}
      {checks && checks.length > SHOWN && (
        <Box>
          <Button size="small" aria-controls={listId} aria-expanded={all} onClick={() => setAll((v) => !v)}>
            {all ? t('deployment.healthChecks.showFewer') : t('deployment.healthChecks.showAll', { count: checks.length })}
          </Button>
        </Box>
      )}
    </Section>
  );
}
