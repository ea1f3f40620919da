import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { subscriptions } from '../db/schema';
import type { PaymentGateway } from './payments';

/**
 * The Paddle transaction an unpaid order's checkout opens. It is made with no database
 * transaction open (on the embedded database, one connection, a transaction held across the call
 * would hold up every other request for as long as Paddle takes): the order commits first, then
 * the transaction is made and its id stored by a guarded update of its own. An order left without
 * one (Paddle failed, or the process died in between) gets it from the next caller: a retry of the
 * order with its key, a change, or the checkout (GET /payments/checkout/{id}).
 */
export function createOrderCheckouts({ db, gateway, log }: { db: Db; gateway: PaymentGateway; log: FastifyBaseLogger }) {
  // One at a time per server in this process: a retry racing the first request waits for it and reuses its transaction.
  const running = new Map<string, Promise<unknown>>();
  function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
    const done = (running.get(key) ?? Promise.resolve()).catch(() => undefined).then(work);
    running.set(key, done);
    const forget = () => {
      if (running.get(key) === done) running.delete(key);
    };
    void done.then(forget, forget);
    return done;
  }

  return {
    /** The server's open checkout transaction, made now if it has none; null when nothing is due or Paddle did not answer. */
    open(deploymentId: string): Promise<string | null> {
      if (gateway.mode !== 'paddle') return Promise.resolve(null);
      return oneAtATime(deploymentId, async () => {
        const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.deploymentId, deploymentId));
        if (!sub || sub.status !== 'pending' || sub.checkoutTransactionId) return sub?.checkoutTransactionId ?? null;
        let made: string | null;
        try {
          made = await gateway.checkoutTransaction(sub, { deploymentId, subscriptionId: sub.id, companyId: sub.companyId });
        } catch (err) {
          // The order stands; its checkout, or a retry of the order, asks Paddle again.
          log.warn({ err, deploymentId }, 'the order has no Paddle transaction yet: Paddle did not make one');
          return null;
        }
        if (!made) return null;
        // Kept only for the price it was made for, and only if nobody stored one meanwhile.
        const [kept] = await db
          .update(subscriptions)
          .set({ checkoutTransactionId: made })
          .where(and(eq(subscriptions.id, sub.id), eq(subscriptions.status, 'pending'), isNull(subscriptions.checkoutTransactionId), eq(subscriptions.quote, sub.quote)))
          .returning({ id: subscriptions.id });
        if (kept) return made;
        // Another process stored one first, or the price changed: ours is cancelled, so nothing can pay it.
        await gateway.abandonCheckout(made).catch((err: unknown) => log.warn({ err, deploymentId, transactionId: made }, 'a spare Paddle transaction could not be cancelled'));
        const [now] = await db.select({ id: subscriptions.checkoutTransactionId }).from(subscriptions).where(eq(subscriptions.id, sub.id));
        return now?.id ?? null;
      });
    },
  };
}

export type OrderCheckouts = ReturnType<typeof createOrderCheckouts>;
