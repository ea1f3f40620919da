import type { DeploymentView } from '../../domain/deployments/schemas';
import type { DeploymentStatus, SubscriptionStatus } from '../../domain/orders/schemas';
import type { LatestTask } from '../../domain/deployments/tasks';

/** How a status reads at a glance: working, fine, stopped, or failed. */
export type StatusTone = 'success' | 'info' | 'warning' | 'error' | 'default';

export const isErrorStatus = (status: DeploymentStatus) => status.startsWith('error_');

export function statusTone(status: DeploymentStatus): StatusTone {
  if (isErrorStatus(status)) return 'error';
  if (status === 'running') return 'success';
  if (status === 'paused' || status === 'comm_error') return 'warning';
  if (status === 'deleted') return 'default';
  return 'info';
}

/**
 * The i18n key of a server's status as its customer reads it. 'provisioned' is a paid order
 * recorded and waiting for its payment ('Waiting for payment'); once paid it stays so only until
 * the worker starts setting it up, which the label says instead.
 */
export function statusLabelKey(status: DeploymentStatus, subscriptionStatus?: SubscriptionStatus | null): string {
  if (status === 'provisioned' && subscriptionStatus === 'active') return 'servers.provisionedPaid';
  return `servers.status.${status}`;
}

/** A paid order recorded and not paid: its status says 'Waiting for payment' already. */
export const isAwaitingPayment = (status: DeploymentStatus, subscriptionStatus: SubscriptionStatus): boolean => status === 'provisioned' && subscriptionStatus !== 'active';

export const isTaskOpen = (task: LatestTask | null | undefined) => task?.status === 'queued' || task?.status === 'running';

/** A server is busy while a task of it is open or its status is a transitional one: the page polls. */
export function isBusy(d: Pick<DeploymentView, 'status' | 'latestTask'>): boolean {
  return isTaskOpen(d.latestTask) || ['comm_error', 'initializing', 'modifying', 'restoring', 'restarting'].includes(d.status);
}

/** SPEC §8: the message a failed task of these kinds shows, even when the server runs on. */
export const TASK_FAILURE_KEYS: Partial<Record<LatestTask['type'], string>> = {
  restore: 'servers.taskFailed.restore',
  unlock_users: 'servers.taskFailed.unlock_users',
  health_check: 'servers.taskFailed.health_check',
};

/** The key of the message to show for the server's state, or null when all is well. */
export function problemKey(d: Pick<DeploymentView, 'status' | 'latestTask'>): string | null {
  if (isErrorStatus(d.status) || d.status === 'comm_error') return `servers.errorMessage.${d.status}`;
  if (d.latestTask?.status === 'failed') return TASK_FAILURE_KEYS[d.latestTask.type] ?? null;
  return null;
}

/** Whole numbers with thousands separators; MAU limits are whole numbers. */
export const formatCount = (n: number) => new Intl.NumberFormat('en-US').format(n);

export const shortDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
export const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
