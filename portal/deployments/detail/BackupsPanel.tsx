import Restore from '@mui/icons-material/Restore';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { deploymentsApi, type BackupDto, type DeploymentActionAnswer, type DeploymentPopulated } from '../../../dataProvider/deployments';
import { dateTime, isTaskOpen } from '../../../src/ui/servers/status';
import { Section } from '../../../src/ui/servers/Section';
import { useServerAction } from '../../../src/ui/servers/useServerAction';

const STATUS_COLOR = { pending: 'info', completed: 'success', failed: 'error' } as const;
const size = (bytes: number | null) => (bytes === null ? '' : new Intl.NumberFormat('en-US', { style: 'unit', unit: bytes >= 1e9 ? 'gigabyte' : 'megabyte', maximumFractionDigits: 1 }).format(bytes >= 1e9 ? bytes / 1e9 : bytes / 1e6));

interface Props {
  deployment: DeploymentPopulated;
  backups: BackupDto[] | undefined;
  canEdit: boolean;
  onAnswer: (answer: DeploymentActionAnswer) => void;
}

/** The server's backups, newest first; an admin restores a completed one (after confirming). */
export function BackupsPanel({ deployment: d, backups, canEdit, onAnswer }: Props) {
  const { t } = useTranslation();
  const { run, pending } = useServerAction(onAnswer);
  const canRestore = canEdit && !pending && !isTaskOpen(d.latestTask) && d.status !== 'deleted' && !d.terminationScheduledAt;
  return (
    <Section title={t('deployment.backups.title')} testId="backups-panel">
      {!d.backupsEnabled && <Typography color="text.secondary">{t('deployment.backups.disabled')}</Typography>}
      {backups?.length === 0 && d.backupsEnabled && <Typography color="text.secondary">{t('deployment.backups.none')}</Typography>}
      {backups && backups.length > 0 && (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
          {backups.map((b) => {
            const when = dateTime.format(new Date(b.completedAt ?? b.createdAt));
            return (
              <Box component="li" key={b._id} data-testid="backup" sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', borderBottom: 1, borderColor: 'divider', pb: 1 }}>
                <Box sx={{ flex: 1, minWidth: 160 }}>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {when}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {t(`deployment.backups.kind.${b.kind}`)}
                    {b.sizeBytes !== null ? ` · ${size(b.sizeBytes)}` : ''}
                  </Typography>
                </Box>
                <Chip size="small" color={STATUS_COLOR[b.status]} variant="outlined" label={t(`deployment.backups.status.${b.status}`)} />
                {canEdit && b.status === 'completed' && (
                  <Tooltip title={t('deployment.backups.restore')}>
                    <span>
                      <IconButton
                        size="small"
                        aria-label={t('deployment.backups.restore')}
                        disabled={!canRestore}
                        onClick={() =>
                          void run({
                            title: t('deployment.restoreBackupTitle', { name: d.name }),
                            message: t('deployment.restoreBackupMessage', { date: when }),
                            confirmLabel: t('deployment.restore'),
                            danger: true,
                            call: () => deploymentsApi.restore(d._id, { backupId: b._id }),
                          })
                        }
                      >
                        <Restore fontSize="small" />
                      </IconButton>
                    </span>
                  </Tooltip>
                )}
              </Box>
            );
          })}
        </Box>
      )}
    </Section>
  );
}
