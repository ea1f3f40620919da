import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { DeploymentStatus } from '../../src/domain/orders/schemas';
import { statusTone } from '../../src/ui/servers/status';

/** A server's status as SPEC §3 names it, coloured by what it means. */
export function StatusChip({ status, size = 'small' }: { status: DeploymentStatus; size?: 'small' | 'medium' }) {
  const { t } = useTranslation();
  const tone = statusTone(status);
  return <Chip size={size} color={tone} variant={tone === 'default' ? 'outlined' : 'filled'} label={t(`servers.status.${status}`)} data-testid="deployment-status" data-status={status} />;
}
