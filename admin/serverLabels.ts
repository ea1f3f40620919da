import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminDeploymentRow } from '../src/domain/admin/deployments';
import type { TaskStatus, TaskType } from '../src/domain/deployments/tasks';
import type { DeploymentStatus, SubscriptionStatus } from '../src/domain/orders/schemas';
import type { PaymentProviderLabel } from '../src/domain/admin/schemas';
import type { BillingCycle } from '../src/domain/constants';
import { formatAmount } from '../src/ui/format';
import { subscriptionText } from '../src/ui/servers/billingText';
import { shortDate, statusLabelKey } from '../src/ui/servers/status';
import '../src/billingI18n';
import '../src/serversI18n';

/**
 * The labels of server and task codes in the admin area: the customer's own strings (one place
 * for a label: `servers.status`, `servers.task`, `servers.taskStatus` in i18n/servers.ts and
 * `management.billing.status` in i18n/billing.ts), never the raw code; cycles and amounts as the
 * customer's billing writes them.
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
  // A server's status as its customer reads it: an unpaid order waits for payment, a paid one is set up soon.
  const serverStatus = useCallback((status: DeploymentStatus, subscription?: SubscriptionStatus | null) => t(statusLabelKey(status, subscription)), [t]);
  // The same, and for a server being deleted until when (where no billing line beside it says so).
  const serverState = useCallback(
    (d: { status: DeploymentStatus; terminationScheduledAt: string | null }, subscription?: SubscriptionStatus | null) => {
      const status = serverStatus(d.status, subscription);
      return d.terminationScheduledAt && d.status !== 'deleted' ? `${status} · ${t('servers.deletingOn', { date: shortDate.format(new Date(d.terminationScheduledAt)) })}` : status;
    },
    [t, serverStatus],
  );
  const cycle = useCallback((c: BillingCycle) => t(`deployment.cycles.${c}`), [t]);
  // An amount as the customer's billing shows it: "$133.00 / month".
  const perCycle = useCallback((amount: string, c: BillingCycle) => t(`management.billing.perCycle.${c}`, { amount: formatAmount(amount, { cents: 'always' }) }), [t]);
  const paymentProvider = useCallback((p: PaymentProviderLabel) => t(`resources.companies.providers.${p}`), [t]);
  return useMemo(
    () => ({ deploymentStatus, serverStatus, serverState, taskStatus, taskType, subscriptionStatus, subscription, cycle, perCycle, paymentProvider }),
    [deploymentStatus, serverStatus, serverState, taskStatus, taskType, subscriptionStatus, subscription, cycle, perCycle, paymentProvider],
  );
}
