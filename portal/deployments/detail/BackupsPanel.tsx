import BackupOutlined from '@mui/icons-material/BackupOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import Restore from '@mui/icons-material/Restore';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBackupDownloadLink, useServerActionMutation, type BackupDto, type DeploymentActionAnswer, type DeploymentPopulated } from '../../../dataProvider/deployments';
import { failureMessage } from '../../../src/ui/form/messages';
import { formatBytes } from '../../../src/ui/numbers';
import { backupTime, backupTimeText, restoreBackupQuestion } from '../../../src/ui/servers/backups';
import { isTaskOpen } from '../../../src/ui/servers/status';
import { Section } from '../../../src/ui/servers/Section';
import { useServerAction } from '../../../src/ui/servers/useServerAction';
import { useFormSubmit } from '../../../src/ui/form/useFormSubmit';

const STATUS_COLOR = { pending: 'info', completed: 'success', failed: 'error' } as const;
/** Backups shown before "Show all": an hourly server keeps a week of them. */
const SHOWN = 10;

interface Props {
  deployment: DeploymentPopulated;
  backups: BackupDto[] | undefined;
  canEdit: boolean;
  onAnswer: (answer: DeploymentActionAnswer) => void;
}

/** Starts the browser's download of a signed link (the server names the file); the page stays. */
function startDownload(url: string) {
  const a = document.createElement('a');
  a.href = url;
  a.download = '';
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}

/**
 * The server's backups, newest first: when each was taken, its kind, status and size, and why a
 * failed one failed. An admin backs up now (showing it until it completes), restores a backup after
 * a question that says what will be lost, and downloads its archive.
 */
export function BackupsPanel({ deployment: d, backups, canEdit, onAnswer }: Props) {
  const { t } = useTranslation();
  const { run, start, pending } = useServerAction(onAnswer);
  const [all, setAll] = useState(false);
  const [linking, setLinking] = useState<string | null>(null);
  const { mutateAsync: act } = useServerActionMutation(d._id);
  const link = useBackupDownloadLink(d._id);
  const { run: runDownload } = useFormSubmit({ report: 'toast', message: (error, tr) => `${tr('deployment.backups.downloadFailed')} ${failureMessage(error, tr)}` });
  const listId = useId();
  const taskOpen = isTaskOpen(d.latestTask);
  const backingUp = taskOpen && d.latestTask?.type === 'backup';
  const canRestore = canEdit && !pending && !taskOpen && d.status !== 'deleted' && !d.terminationScheduledAt;
  // Why "Back up now" cannot be pressed now (the server has the last word: 409 with its reason).
  const busyReason = backingUp
    ? null
    : d.status !== 'running'
      ? t('deployment.backups.whenRunning')
      : taskOpen && d.latestTask
        ? t('deployment.backups.whenIdle', { task: t(`servers.task.${d.latestTask.type}`) })
        : null;
  const shown = all ? backups : backups?.slice(0, SHOWN);

  async function download(b: BackupDto) {
    setLinking(b._id);
    await runDownload(async () => startDownload((await link.mutateAsync(b._id)).url));
    setLinking(null);
  }

  const backUpNow = canEdit && d.backupsEnabled && (
    <Button
      size="small"
      variant="outlined"
      data-testid="backup-now"
      startIcon={backingUp || pending ? <CircularProgress size={14} color="inherit" aria-hidden /> : <BackupOutlined />}
      disabled={backingUp || pending || busyReason !== null}
      aria-describedby={busyReason ? `${listId}-reason` : undefined}
      onClick={() => void start({ call: () => act({ action: 'backupNow' }), done: () => t('deployment.backups.backUpQueued') })}
    >
      {backingUp ? t('deployment.backups.backingUp') : t('deployment.backups.backUpNow')}
    </Button>
  );

  return (
    <Section title={t('deployment.backups.title')} testId="backups-panel" action={backUpNow}>
      {backUpNow && busyReason && (
        <Typography id={`${listId}-reason`} variant="body2" color="text.secondary" data-testid="backup-now-reason">
          {busyReason}
        </Typography>
      )}
      {!d.backupsEnabled && <Typography color="text.secondary">{t('deployment.backups.disabled')}</Typography>}
      {backups?.length === 0 && d.backupsEnabled && <Typography color="text.secondary">{t('deployment.backups.none')}</Typography>}
      {shown && shown.length > 0 && (
        <Box component="ul" id={listId} aria-label={t('deployment.backups.list')} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
          {shown.map((b) => (
            <Box
              component="li"
              key={b._id}
              data-testid="backup"
              data-status={b.status}
              sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) auto', alignItems: 'center', columnGap: 1, borderBottom: 1, borderColor: 'divider', pb: 1 }}
            >
              <Box sx={{ display: 'grid', gap: 0.25, minWidth: 0 }}>
                <Box sx={{ display: 'flex', alignItems: 'center', columnGap: 1, rowGap: 0.5, flexWrap: 'wrap' }}>
                  <Typography variant="body2" component="time" dateTime={backupTime(b)} sx={{ fontWeight: 600 }} data-testid="backup-time">
                    {backupTimeText(b)}
                  </Typography>
                  <Chip
                    size="small"
                    color={STATUS_COLOR[b.status]}
                    variant="outlined"
                    icon={b.status === 'pending' ? <CircularProgress size={10} color="inherit" aria-hidden /> : undefined}
                    label={t(`deployment.backups.status.${b.status}`)}
                  />
                </Box>
                <Typography variant="caption" color="text.secondary" data-testid="backup-facts">
                  {t(`deployment.backups.kind.${b.kind}`)}
                  {b.sizeBytes !== null && ` · ${formatBytes(b.sizeBytes)}`}
                </Typography>
                {b.status === 'failed' && b.error && (
                  <Typography variant="caption" color="error.main" sx={{ overflowWrap: 'anywhere' }} data-testid="backup-error">
                    {t('deployment.backups.failedBecause', { error: b.error })}
                  </Typography>
                )}
                {b.status === 'completed' && !b.restorable && (
                  <Typography variant="caption" color="text.secondary">
                    {t('deployment.backups.notRestorable')}
                  </Typography>
                )}
              </Box>
              {canEdit && b.restorable && (
                <Box sx={{ display: 'flex' }}>
                  <Tooltip title={t('deployment.backups.download')}>
                    <span>
                      <IconButton size="small" aria-label={t('deployment.backups.download')} disabled={linking !== null} onClick={() => void download(b)}>
                        {linking === b._id ? <CircularProgress size={16} aria-hidden /> : <DownloadOutlined fontSize="small" />}
                      </IconButton>
                    </span>
                  </Tooltip>
                  <Tooltip title={t('deployment.backups.restore')}>
                    <span>
                      <IconButton
                        size="small"
                        aria-label={t('deployment.backups.restore')}
                        disabled={!canRestore}
                        onClick={() =>
                          void run({
                            ...restoreBackupQuestion(t, d.name, b),
                            confirmLabel: t('deployment.restore'),
                            danger: true,
                            call: () => act({ action: 'restore', backupId: b._id }),
                          })
                        }
                      >
                        <Restore fontSize="small" />
                      </IconButton>
                    </span>
                  </Tooltip>
                </Box>
              )}
            </Box>
          ))}
        </Box>
      )}
      {backups && backups.length > SHOWN && (
        <Box>
          <Button size="small" aria-controls={listId} aria-expanded={all} onClick={() => setAll((v) => !v)}>
            {all ? t('deployment.backups.showFewer') : t('deployment.backups.showAll', { count: backups.length })}
          </Button>
        </Box>
      )}
    </Section>
  );
}
