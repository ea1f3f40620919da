import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { DeploymentStatus, SubscriptionStatus } from '../../src/domain/orders/schemas';
import { statusLabelKey, statusTone } from '../../src/ui/servers/status';

/** A server's status as its customer reads it (an unpaid order: 'Waiting for payment'), coloured by what it means. */
export function StatusChip({ status, subscriptionStatus, size = 'small' }: { status: DeploymentStatus; subscriptionStatus?: SubscriptionStatus | null; size?: 'small' | 'medium' }) {
  const { t } = useTranslation();
  const tone = statusTone(status);
  return <Chip size={size} color={tone} variant={tone === 'default' ? 'outlined' : 'filled'} label={t(statusLabelKey(status, subscriptionStatus))} data-testid="deployment-status" data-status={status} />;
}
