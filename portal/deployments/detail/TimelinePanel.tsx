import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeploymentTimeline } from '../../../dataProvider/deployments';
import type { DeploymentEventDto } from '../../../src/domain/deployments/tasks';
import { dateTime } from '../../../src/ui/servers/status';
import { Section } from '../../../src/ui/servers/Section';

const SHOWN = 8;

function eventText(e: DeploymentEventDto, t: TFunction): string {
  const task = e.taskType ? t(`servers.task.${e.taskType}`) : '';
  if (e.kind === 'status') {
    const to = e.toStatus ? t(`servers.status.${e.toStatus}`) : '';
    return e.fromStatus ? t('deployment.timeline.kind.status', { from: t(`servers.status.${e.fromStatus}`), to }) : t('deployment.timeline.kind.statusFirst', { to });
  }
  if (DATED.has(e.kind)) return t(`deployment.timeline.kind.${e.kind}`, { date: datedMessage(e) ?? '' });
  return t(`deployment.timeline.kind.${e.kind}`, { task });
}

/**
 * The event's detail in words: the server records a deletion's date as an ISO time and health and
 * retries as short English notes; a provider's error text is shown as it came.
 */
function eventDetail(e: DeploymentEventDto, t: TFunction): string | null {
  const m = e.message;
  if (!m) return null;
  // A dated event's label carries its date (eventText).
  if (DATED.has(e.kind) && datedMessage(e)) return null;
  if (e.kind === 'health') {
    if (m === 'healthy') return t('deployment.health.healthy');
    if (m.startsWith('unhealthy')) return [t('deployment.health.unhealthy'), m.slice('unhealthy: '.length)].filter(Boolean).join(': ');
  }
  const attempt = /^attempt (\d+)$/.exec(m);
  if (attempt) return t('deployment.timeline.attempt', { n: Number(attempt[1]) });
  if (m === 'verification record not found') return t('deployment.timeline.domainNotFound');
  return m;
}
/** Events whose message is the date they announce: shown in words, never as the stored timestamp. */
const DATED = new Set<DeploymentEventDto['kind']>(['termination_scheduled', 'billing_stopped']);
function datedMessage(e: DeploymentEventDto): string | null {
  const at = e.message ? new Date(e.message) : null;
  return at && !Number.isNaN(at.getTime()) ? dateTime.format(at) : null;
}

/** Every task and status change of the server, newest first (GET /deployments/events). */
export function TimelinePanel({ timeline }: { timeline: DeploymentTimeline | undefined }) {
  const { t } = useTranslation();
  const [all, setAll] = useState(false);
  const events = timeline?.events ?? [];
  const shown = all ? events : events.slice(0, SHOWN);
  return (
    <Section title={t('deployment.timeline.title')} testId="timeline-panel">
      {timeline && events.length === 0 && <Typography color="text.secondary">{t('deployment.timeline.none')}</Typography>}
      <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
        {shown.map((e) => (
          <Box component="li" key={e._id} data-testid="timeline-event" data-kind={e.kind} sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '170px minmax(0, 1fr)' }, gap: { xs: 0, sm: 1.5 }, borderLeft: 3, borderColor: e.kind === 'task_failed' ? 'error.main' : 'divider', pl: 1.5 }}>
            <Typography variant="caption" color="text.secondary" component="time" dateTime={e.at} sx={{ pt: { sm: 0.25 } }}>
              {dateTime.format(new Date(e.at))}
            </Typography>
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="body2">{eventText(e, t)}</Typography>
              {(eventDetail(e, t) || e.actorEmail) && (
                <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                  {[eventDetail(e, t), e.actorEmail ? t('deployment.timeline.by', { email: e.actorEmail }) : null].filter(Boolean).join(' · ')}
                </Typography>
              )}
            </Box>
          </Box>
        ))}
      </Box>
      {!all && events.length > SHOWN && (
        <Button size="small" onClick={() => setAll(true)} sx={{ justifySelf: 'start' }}>
          {t('deployment.timeline.showAll', { count: events.length })}
        </Button>
      )}
    </Section>
  );
}
