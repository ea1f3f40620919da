import { NEW_ORDER_STATUS } from '../../src/domain/orders/schemas';
import type { Db } from '../db/client';
import { eq } from 'drizzle-orm';
import { deployments as deploymentsTable } from '../db/schema';
import { recordAudit, type AuditActor } from './audit';
import { enqueueTask, recordEvent, setDeploymentStatus } from './deploymentTasks';
import type { TaskQueue } from '../queue';
import type { SettlementHooks } from './paddle/events';
import { recordQuotePayment } from './quotes';

type DeploymentRow = typeof deploymentsTable.$inferSelect;

/** Statuses of a server that has (or is getting) a machine: a plan change resizes it. */
const HAS_MACHINE = new Set<DeploymentRow['status']>(['initializing', 'running', 'modifying', 'restarting', 'restoring', 'comm_error', 'error_modifying', 'error_restarting', 'error_pausing']);

/**
 * Where the order flow hands servers to the task queue, always in the order's own transaction:
 * a settled order (free at once, paid once its payment is confirmed) is provisioned; a change of a
 * server that has a machine is applied by a modify task.
 */
export function createProvisioning({ queue }: { queue: TaskQueue }): SettlementHooks & {
  ordered(tx: Db, deployment: DeploymentRow, actor: AuditActor): Promise<void>;
  changed(tx: Db, deployment: DeploymentRow, actor: AuditActor | null): Promise<void>;
} {
  async function changed(tx: Db, deployment: DeploymentRow, actor: AuditActor | null) {
    if (!HAS_MACHINE.has(deployment.status)) return;
    const task = await enqueueTask(tx, queue, { deploymentId: deployment.id, type: 'modify', actor });
    await recordAudit(tx, { actor, action: 'deployment.modify', targetType: 'deployment', targetId: deployment.id, companyId: deployment.companyId, after: { taskId: task.id, planCode: deployment.planCode } });
  }

  return {
    async ordered(tx, deployment, actor) {
      await recordEvent(tx, deployment.id, 'status', { toStatus: deployment.status, actor });
      if (deployment.status !== NEW_ORDER_STATUS.settled) return;
      const task = await enqueueTask(tx, queue, { deploymentId: deployment.id, type: 'provision', actor });
      await recordAudit(tx, { actor, action: 'deployment.provision', targetType: 'deployment', targetId: deployment.id, companyId: deployment.companyId, after: { taskId: task.id } });
    },
    async settled(tx, deploymentId) {
      const [row] = await tx.select().from(deploymentsTable).where(eq(deploymentsTable.id, deploymentId));
      if (!row) return;
      // Paid for a change of a server that already runs: resize it.
      if (row.status !== NEW_ORDER_STATUS.awaitingPayment) return changed(tx, row, null);
      await setDeploymentStatus(tx, deploymentId, NEW_ORDER_STATUS.settled, { message: 'payment confirmed' });
      const task = await enqueueTask(tx, queue, { deploymentId, type: 'provision' });
      await recordAudit(tx, { actor: null, action: 'deployment.provision', targetType: 'deployment', targetId: deploymentId, companyId: row.companyId, after: { taskId: task.id, paid: true } });
      await recordQuotePayment(tx, deploymentId);
    },
    changed,
  };
}

export type Provisioning = ReturnType<typeof createProvisioning>;
