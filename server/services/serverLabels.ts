import { billingEn } from '../../i18n/billing';
import { serversEn } from '../../i18n/servers';
import type { AdminDeploymentRow } from '../../src/domain/admin/deployments';
import { subscriptionState } from '../../src/domain/billing/rules';
import type { TaskStatus, TaskType } from '../../src/domain/deployments/tasks';
import type { DeploymentStatus, SubscriptionStatus } from '../../src/domain/orders/schemas';

function subscriptionStatus(s: string | null): string {
  return s ? (billingEn.management.billing.status[s as SubscriptionStatus] ?? s) : '';
}

// The screens' day format (`shortDate`, src/ui/servers/status.ts).
const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/**
 * The customer's labels of server and task codes (i18n/servers.ts, i18n/billing.ts: one place for
 * a label), for the admin exports: a downloaded file reads like the screen it came from, as the
 * customer's own table export does. The list API keeps the codes; the screens translate them.
 */
export const serverLabels = {
  deploymentStatus: (s: DeploymentStatus) => serversEn.servers.status[s],
  taskStatus: (s: TaskStatus) => serversEn.servers.taskStatus[s],
  taskType: (s: TaskType) => serversEn.servers.task[s],
  subscriptionStatus,
  /** A server's subscription as the screens read it (`subscriptionText`): the billing line once it stops billing. */
  subscription(row: Pick<AdminDeploymentRow, 'free' | 'status' | 'subscriptionStatus' | 'terminationScheduledAt' | 'scheduledChange'>): string {
    const state = subscriptionState({ free: row.free, status: row.subscriptionStatus, deleted: row.status === 'deleted', deletingOn: row.terminationScheduledAt, nextBilledAt: null, scheduledChange: row.scheduledChange });
    if (state.kind === 'status') return subscriptionStatus(state.status);
    const date = 'date' in state.line ? day.format(new Date(state.line.date)) : '';
    return billingEn.billingLine[state.line.key].replace('{{date}}', date);
  },
};
