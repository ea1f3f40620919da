import { and, eq, isNull, lt } from 'drizzle-orm';
import { PENDING_ORDER_CLEANUP_DAYS } from '../../src/domain/constants';
import type { Db } from '../db/client';
import { deploymentRuntime, deployments, subscriptions } from '../db/schema';
import { recordAudit } from './audit';
import { setDeploymentStatus } from './deploymentTasks';

/** A server waiting at the payment step, as the pending-orders schedule sees it. */
export interface UnpaidOrder {
  id: string;
  name: string;
  companyId: string;
  projectId: string;
  orderedAt: Date;
  subscriptionId: string;
  checkoutTransactionId: string | null;
  sent: number;
}

/** Orders never paid: the servers waiting for them, the reminders claimed, the removal once their time is up. */
export function createPendingOrderService({ db }: { db: Db }) {
  return {
    /** Servers whose order is unpaid and that the customer is not already deleting. */
    unpaid: (): Promise<UnpaidOrder[]> =>
      db
        .select({ id: deployments.id, name: deployments.name, companyId: deployments.companyId, projectId: deployments.projectId, orderedAt: deployments.createdAt, subscriptionId: subscriptions.id, checkoutTransactionId: subscriptions.checkoutTransactionId, sent: subscriptions.pendingRemindersSent })
        .from(deployments)
        .innerJoin(subscriptions, eq(subscriptions.deploymentId, deployments.id))
        .leftJoin(deploymentRuntime, eq(deploymentRuntime.deploymentId, deployments.id))
        .where(and(eq(subscriptions.status, 'pending'), eq(deployments.status, 'provisioned'), isNull(deploymentRuntime.terminationScheduledAt))),

    /** Claims reminder number `n` (a guarded update, so two workers never both send it); true when this caller got it. */
    async claimReminder(subscriptionId: string, n: number): Promise<boolean> {
      const claimed = await db
        .update(subscriptions)
        .set({ pendingRemindersSent: n })
        .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.status, 'pending'), lt(subscriptions.pendingRemindersSent, n)))
        .returning({ id: subscriptions.id });
      return claimed.length > 0;
    },

    /**
     * Deletes a server whose order was never paid, if it still is one (checked under the server's
     * lock), and cancels its subscription, audited as the system's. True when it did.
     */
    removeUnpaid(d: Pick<UnpaidOrder, 'id' | 'companyId' | 'orderedAt' | 'subscriptionId'>, at: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [server] = await tx.select({ status: deployments.status }).from(deployments).where(eq(deployments.id, d.id)).for('update');
        const [sub] = await tx.select({ status: subscriptions.status }).from(subscriptions).where(eq(subscriptions.id, d.subscriptionId));
        await tx.insert(deploymentRuntime).values({ deploymentId: d.id }).onConflictDoNothing();
        const [runtime] = await tx.select({ terminationScheduledAt: deploymentRuntime.terminationScheduledAt }).from(deploymentRuntime).where(eq(deploymentRuntime.deploymentId, d.id));
        if (server?.status !== 'provisioned' || sub?.status !== 'pending' || runtime?.terminationScheduledAt) return false;
        await tx.update(subscriptions).set({ status: 'canceled', updatedAt: at }).where(eq(subscriptions.id, d.subscriptionId));
        await setDeploymentStatus(tx, d.id, 'deleted');
        // Nothing was ever set up, so there is nothing to restore.
        await tx.update(deploymentRuntime).set({ deletedAt: at, restorableUntil: at, updatedAt: at }).where(eq(deploymentRuntime.deploymentId, d.id));
        await recordAudit(tx, { actor: null, action: 'deployment.expire', targetType: 'deployment', targetId: d.id, companyId: d.companyId, before: { status: 'provisioned', subscription: 'pending' }, after: { status: 'deleted', subscription: 'canceled', orderedAt: d.orderedAt.toISOString(), unpaidDays: PENDING_ORDER_CLEANUP_DAYS } });
        return true;
      });
    },
  };
}

export type PendingOrderService = ReturnType<typeof createPendingOrderService>;
