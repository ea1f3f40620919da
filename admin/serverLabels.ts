import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminDeploymentRow } from '../src/domain/admin/deployments';
import type { TaskStatus, TaskType } from '../src/domain/deployments/tasks';
import type { DeploymentStatus, SubscriptionStatus } from '../src/domain/orders/schemas';
import { subscriptionText } from '../src/ui/servers/billingText';
import '../src/billingI18n';
import '../src/serversI18n';

/**
 * The labels of server and task codes in the admin area: the customer's own strings (one place
 * for a label: `servers.status`, `servers.task`, `servers.taskStatus` in i18n/servers.ts and
 * `management.billing.status` in i18n/billing.ts), never the raw code.
 */
export function useServerLabels() {
  const { t } = useTranslation();
  const deploymentStatus = useCallback((s: DeploymentStatus) => t(`servers.status.${s}`), [t]);
  const taskStatus = useCallback((s: TaskStatus) => t(`servers.taskStatus.${s}`), [t]);
  const taskType = useCallback((s: TaskType) => t(`servers.task.${s}`), [t]);
  const subscriptionStatus = useCallback((s: string | null) => (s ? t(`management.billing.status.${s as SubscriptionStatus}`) : t('resources.deployments.noSubscription')), [t]);
  // A list row's subscription as the customer's screens read it: the billing line once it stops billing.
  const subscription = useCallback(
    (d: Pick<AdminDeploymentRow, 'free' | 'status' | 'subscriptionStatus' | 'terminationScheduledAt' | 'scheduledChange'>) =>
      subscriptionText({ free: d.free, status: d.subscriptionStatus, deleted: d.status === 'deleted', deletingOn: d.terminationScheduledAt, nextBilledAt: null, scheduledChange: d.scheduledChange }, t, t('resources.deployments.noSubscription')),
    [t],
  );
  return useMemo(() => ({ deploymentStatus, taskStatus, taskType, subscriptionStatus, subscription }), [deploymentStatus, taskStatus, taskType, subscriptionStatus, subscription]);
}
