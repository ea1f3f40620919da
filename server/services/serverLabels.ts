import { billingEn } from '../../i18n/billing';
import { serversEn } from '../../i18n/servers';
import type { TaskStatus, TaskType } from '../../src/domain/deployments/tasks';
import type { DeploymentStatus, SubscriptionStatus } from '../../src/domain/orders/schemas';

/**
 * The customer's labels of server and task codes (i18n/servers.ts, i18n/billing.ts: one place for
 * a label), for the admin exports: a downloaded file reads like the screen it came from, as the
 * customer's own table export does. The list API keeps the codes; the screens translate them.
 */
export const serverLabels = {
  deploymentStatus: (s: DeploymentStatus) => serversEn.servers.status[s],
  taskStatus: (s: TaskStatus) => serversEn.servers.taskStatus[s],
  taskType: (s: TaskType) => serversEn.servers.task[s],
  subscriptionStatus: (s: string | null) => (s ? (billingEn.management.billing.status[s as SubscriptionStatus] ?? s) : ''),
};
