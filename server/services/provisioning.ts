import { NEW_ORDER_STATUS } from '../../src/domain/orders';
import type { Db } from '../db/client';
import type { deployments } from '../db/schema';
import type { AuditActor } from './audit';
import { enqueueTask, recordEvent, setDeploymentStatus, type TaskQueue } from './deploymentTasks';
import type { SettlementHooks } from './paddle/events';

type DeploymentRow = typeof deployments.$inferSelect;

/** Statuses of a server that has (or is getting) a machine: a plan change resizes it. */
const HAS_MACHINE = new Set<DeploymentRow['status']>(['initializing', 'running', 'modifying', 'restarting', 'restoring', 'comm_error', 'error_modifying', 'error_restarting', 'error_pausing']);

/**
 * Where the order flow hands servers to the task queue, always in the order's own transaction:
 * a settled order (free at once, paid once its payment is confirmed) is provisioned; a change of a
 * server that has a machine is applied by a modify task.
 */
export function createProvisioning(queue: TaskQueue): SettlementHooks & {
  ordered(tx: Db, deployment: DeploymentRow, actor: AuditActor): Promise<void>;
  changed(tx: Db, deployment: DeploymentRow, actor: AuditActor): Promise<void>;
} {
  return {
    async ordered(tx, deployment, actor) {
      await recordEvent(tx, deployment.id, 'status', { toStatus: deployment.status, actor });
      if (deployment.status === NEW_ORDER_STATUS.settled) await enqueueTask(tx, queue, { deploymentId: deployment.id, type: 'provision', actor });
    },
    async settled(tx, deploymentId) {
      await setDeploymentStatus(tx, deploymentId, NEW_ORDER_STATUS.settled, { message: 'payment confirmed' });
      await enqueueTask(tx, queue, { deploymentId, type: 'provision' });
    },
    async changed(tx, deployment, actor) {
      if (HAS_MACHINE.has(deployment.status)) await enqueueTask(tx, queue, { deploymentId: deployment.id, type: 'modify', actor });
    },
  };
}

export type Provisioning = ReturnType<typeof createProvisioning>;
