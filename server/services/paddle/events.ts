import { and, eq } from 'drizzle-orm';
import { centsToDecimal } from '../../../src/domain/money';
import { NEW_ORDER_STATUS, type SubscriptionStatus } from '../../../src/domain/orders';
import { paddleSubscriptionSchema, paddleTransactionSchema, type CardSummary, type PaddleEvent, type PaddleTransaction } from '../../../src/domain/payments';
import type { Db } from '../../db/client';
import { deployments, paymentEvents, subscriptions, transactions, users } from '../../db/schema';
import { recordAudit } from '../audit';
import { setDeploymentStatus } from '../deploymentTasks';
import { UUID } from '../plans';

export type EventOutcome = 'applied' | 'stale' | 'unmatched' | 'ignored' | 'invalid';

type SubscriptionRow = typeof subscriptions.$inferSelect;

const STATUS: Record<string, SubscriptionStatus> = { active: 'active', trialing: 'active', past_due: 'past_due', paused: 'paused', canceled: 'canceled' };

/** Our subscription an event is about: by the id we put in custom_data, else by Paddle's id. Locked. */
async function findSubscription(tx: Db, customId: string | undefined, vendorId: string | null | undefined): Promise<SubscriptionRow | null> {
  if (customId && UUID.test(customId)) {
    const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.id, customId)).for('update');
    if (row) return row;
  }
  if (vendorId) {
    const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.vendorSubscriptionId, vendorId)).for('update');
    if (row) return row;
  }
  return null;
}

const date = (s: string | null | undefined) => (s ? new Date(s) : null);

/** What the running-servers side does when an order is settled (in the event's transaction). */
export interface SettlementHooks {
  settled(tx: Db, deploymentId: string): Promise<void>;
}

async function applySubscription(tx: Db, event: PaddleEvent, occurredAt: Date, hooks?: SettlementHooks): Promise<EventOutcome> {
  const parsed = paddleSubscriptionSchema.safeParse(event.data);
  if (!parsed.success) return 'invalid';
  const data = parsed.data;
  const sub = await findSubscription(tx, data.custom_data?.subscriptionId, data.id);
  if (!sub) return 'unmatched';
  // Paddle does not promise order: an event older than the last one applied would move it back.
  if (sub.lastEventAt && occurredAt < sub.lastEventAt) return 'stale';
  const status = STATUS[data.status] ?? sub.status;
  await tx
    .update(subscriptions)
    .set({
      vendor: 'paddle',
      status,
      vendorSubscriptionId: data.id,
      vendorCustomerId: data.customer_id ?? sub.vendorCustomerId,
      currentPeriodStart: date(data.current_billing_period?.starts_at) ?? sub.currentPeriodStart,
      currentPeriodEnd: date(data.current_billing_period?.ends_at) ?? sub.currentPeriodEnd,
      nextBilledAt: data.next_billed_at === undefined ? sub.nextBilledAt : date(data.next_billed_at),
      scheduledChange: data.scheduled_change ?? null,
      pastDueSince: status === 'past_due' ? (sub.pastDueSince ?? occurredAt) : null,
      lastEventAt: occurredAt,
      updatedAt: new Date(),
    })
    .where(eq(subscriptions.id, sub.id));
  if (status !== sub.status) {
    await recordAudit(tx, { actor: null, action: 'subscription.status', targetType: 'subscription', targetId: sub.id, companyId: sub.companyId, before: { status: sub.status }, after: { status, event: event.event_type, eventId: event.event_id } });
  }
  // A paid order waiting for its payment is settled: it can now be provisioned.
  if (status === 'active') {
    const [waiting] = await tx
      .select({ id: deployments.id })
      .from(deployments)
      .where(and(eq(deployments.id, sub.deploymentId), eq(deployments.status, NEW_ORDER_STATUS.awaitingPayment)))
      .for('update');
    // The running-servers side provisions it (status and task together); without it, only the status moves.
    if (waiting && hooks) await hooks.settled(tx, waiting.id);
    else if (waiting) await setDeploymentStatus(tx, waiting.id, NEW_ORDER_STATUS.settled, { message: 'payment confirmed' });
  }
  return 'applied';
}

const cents = (minor: string) => centsToDecimal(Number(minor));

function cardOf(data: PaddleTransaction): CardSummary | null {
  const card = data.payments.find((p) => p.method_details?.card)?.method_details?.card;
  return card ? { brand: card.type, last4: card.last4, expiryMonth: card.expiry_month, expiryYear: card.expiry_year } : null;
}

async function applyTransaction(tx: Db, event: PaddleEvent): Promise<EventOutcome> {
  const parsed = paddleTransactionSchema.safeParse(event.data);
  if (!parsed.success) return 'invalid';
  const data = parsed.data;
  const sub = await findSubscription(tx, data.custom_data?.subscriptionId, data.subscription_id);
  if (!sub) return 'unmatched';
  const [owner] = await tx.select({ email: users.email }).from(deployments).innerJoin(users, eq(users.id, deployments.createdBy)).where(eq(deployments.id, sub.deploymentId));
  const card = cardOf(data);
  const totals = data.details.totals;
  // A transaction is a fact, not a state: it is recorded whenever it arrives, once per Paddle id.
  const [recorded] = await tx
    .insert(transactions)
    .values({
      companyId: sub.companyId,
      subscriptionId: sub.id,
      deploymentId: sub.deploymentId,
      vendorTransactionId: data.id,
      invoiceNumber: data.invoice_number ?? null,
      status: data.status,
      origin: data.origin ?? null,
      currency: data.currency_code,
      subtotal: cents(totals.subtotal),
      discount: cents(totals.discount),
      tax: cents(totals.tax),
      total: cents(totals.total),
      billedAt: date(data.billed_at) ?? new Date(event.occurred_at),
      receipt: {
        customerEmail: owner?.email ?? null,
        lines: data.details.line_items.map((l) => ({ name: l.product?.name ?? '', amount: cents(l.totals?.total ?? '0') })),
        card,
      },
    })
    .onConflictDoNothing({ target: transactions.vendorTransactionId })
    .returning({ id: transactions.id });
  if (recorded) {
    const after = { vendorTransactionId: data.id, total: cents(totals.total), currency: data.currency_code, origin: data.origin ?? null, status: data.status };
    await recordAudit(tx, { actor: null, action: 'subscription.payment', targetType: 'subscription', targetId: sub.id, companyId: sub.companyId, after });
  }
  if (card) await tx.update(subscriptions).set({ card, vendorCustomerId: data.customer_id ?? sub.vendorCustomerId }).where(eq(subscriptions.id, sub.id));
  return 'applied';
}

const SUBSCRIPTION_EVENTS = new Set(['subscription.created', 'subscription.activated', 'subscription.updated', 'subscription.past_due', 'subscription.paused', 'subscription.resumed', 'subscription.canceled', 'subscription.trialing']);

/**
 * Stores a verified notification once (its event_id is unique) and applies it in the same
 * transaction: if applying fails, nothing is kept and Paddle's retry gets another chance. A
 * duplicate delivery finds the event stored and does nothing.
 */
export async function recordAndApply(db: Db, event: PaddleEvent, hooks?: SettlementHooks): Promise<{ duplicate: boolean; outcome: EventOutcome | 'duplicate' }> {
  return db.transaction(async (tx) => {
    const occurredAt = new Date(event.occurred_at);
    const [stored] = await tx
      .insert(paymentEvents)
      .values({ eventId: event.event_id, eventType: event.event_type, occurredAt, payload: event })
      .onConflictDoNothing({ target: paymentEvents.eventId })
      .returning({ id: paymentEvents.id });
    if (!stored) return { duplicate: true, outcome: 'duplicate' as const };
    const outcome: EventOutcome = SUBSCRIPTION_EVENTS.has(event.event_type)
      ? await applySubscription(tx, event, occurredAt, hooks)
      : event.event_type === 'transaction.completed'
        ? await applyTransaction(tx, event)
        : 'ignored';
    await tx.update(paymentEvents).set({ processedAt: new Date(), outcome }).where(eq(paymentEvents.id, stored.id));
    return { duplicate: false, outcome };
  });
}
