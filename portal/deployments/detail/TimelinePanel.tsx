import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeploymentTimeline } from '../../../dataProvider/deployments';
import type { BackupSchedule } from '../../../src/domain/deployments/schemas';
import type { DeploymentEventDto } from '../../../src/domain/deployments/tasks';
import { dateTime, shortDate } from '../../../src/ui/servers/status';
import { Section } from '../../../src/ui/servers/Section';
import { foldTimeline, type TimelineEntry } from './foldTimeline';

const SHOWN = 8;
type BackupScheduleKind = BackupSchedule['kind'];

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

/** One event's line: when, what, and its detail or who did it. */
function EventLine({ e, t }: { e: DeploymentEventDto; t: TFunction }) {
  const detail = eventDetail(e, t);
  return (
    <Box component="li" data-testid="timeline-event" data-kind={e.kind} sx={{ ...LINE, borderColor: e.kind === 'task_failed' ? 'error.main' : 'divider' }}>
      <Typography variant="caption" color="text.secondary" component="time" dateTime={e.at} sx={{ pt: { sm: 0.25 } }}>
        {dateTime.format(new Date(e.at))}
      </Typography>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2">{eventText(e, t)}</Typography>
        {(detail || e.actorEmail) && (
          <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
            {[detail, e.actorEmail ? t('deployment.timeline.by', { email: e.actorEmail }) : null].filter(Boolean).join(' · ')}
          </Typography>
        )}
      </Box>
    </Box>
  );
}

const LINE = { display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '170px minmax(0, 1fr)' }, gap: { xs: 0, sm: 1.5 }, borderLeft: 3, pl: 1.5 } as const;

/** A day's routine backups as one line ("24 hourly backups") that opens onto their events. */
function BackupsLine({ entry, schedule, t }: { entry: Extract<TimelineEntry, { kind: 'backups' }>; schedule: BackupScheduleKind | null; t: TFunction }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  return (
    <Box component="li" data-testid="timeline-backups" sx={{ display: 'grid', gap: 1 }}>
      <Box sx={{ ...LINE, borderColor: 'divider' }}>
        <Typography variant="caption" color="text.secondary" component="time" dateTime={entry.day} sx={{ pt: { sm: 0.25 } }}>
          {shortDate.format(new Date(entry.at))}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 1, minWidth: 0 }}>
          <Typography variant="body2">{t(`deployment.timeline.backups.${schedule ?? 'scheduled'}`, { count: entry.count })}</Typography>
          <Button size="small" onClick={() => setOpen((o) => !o)} aria-expanded={open} aria-controls={listId} sx={{ minWidth: 0, py: 0 }}>
            {open ? t('deployment.timeline.hideBackups') : t('deployment.timeline.showBackups')}
          </Button>
        </Box>
      </Box>
      {open && (
        <Box component="ol" id={listId} sx={{ listStyle: 'none', p: 0, m: 0, ml: 1.5, display: 'grid', gap: 1 }}>
          {entry.events.map((e) => (
            <EventLine key={e._id} e={e} t={t} />
          ))}
        </Box>
      )}
    </Box>
  );
}

/**
 * Every task and status change of the server, newest first (GET /deployments/events), with each
 * day's routine backups folded into one line. `backupSchedule` names them ("hourly") when the
 * server has a backup option.
 */
export function TimelinePanel({ timeline, backupSchedule = null }: { timeline: DeploymentTimeline | undefined; backupSchedule?: BackupScheduleKind | null }) {
  const { t } = useTranslation();
  const [all, setAll] = useState(false);
  const entries = useMemo(() => foldTimeline(timeline?.events ?? []), [timeline]);
  const shown = all ? entries : entries.slice(0, SHOWN);
  return (
    <Section title={t('deployment.timeline.title')} testId="timeline-panel">
      {timeline && entries.length === 0 && <Typography color="text.secondary">{t('deployment.timeline.none')}</Typography>}
      <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
        {shown.map((entry) => (entry.kind === 'event' ? <EventLine key={entry.event._id} e={entry.event} t={t} /> : <BackupsLine key={`backups-${entry.day}`} entry={entry} schedule={backupSchedule} t={t} />))}
      </Box>
      {!all && entries.length > SHOWN && (
        <Button size="small" onClick={() => setAll(true)} sx={{ justifySelf: 'start' }}>
          {t('deployment.timeline.showAll', { count: entries.length })}
        </Button>
      )}
    </Section>
  );
}
