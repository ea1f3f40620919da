import { and, eq } from 'drizzle-orm';
import { centsToDecimal, decimalToCents } from '../../../src/domain/money';
import type { SubscriptionStatus } from '../../../src/domain/orders/schemas';
import { paddleSubscriptionSchema, paddleTransactionSchema, priceMatchesQuote, type CardSummary, type PaddleEvent, type PaddleTransaction, type ScheduledChange } from '../../../src/domain/payments/schemas';
import type { Db } from '../../db/client';
import { deployments, paymentEvents, subscriptions, transactions, users } from '../../db/schema';
import { recordAudit } from '../audit';
import { companyCard } from '../cardOnFile';
import { recordEvent } from '../deploymentTasks';
import { UUID } from '../plans';
import { issueInvoice } from '../invoices';
import type { InvoiceParty } from '../../../src/domain/payments/invoice';

export type EventOutcome = 'applied' | 'stale' | 'unmatched' | 'ignored' | 'invalid' | 'mismatch';

type SubscriptionRow = typeof subscriptions.$inferSelect;

const STATUS: Record<string, SubscriptionStatus> = { active: 'active', trialing: 'active', past_due: 'past_due', paused: 'paused', canceled: 'canceled' };

/**
 * Our subscription an event is about, locked: by the ids we created (the checkout's transaction,
 * then the vendor subscription it made), never by custom_data, which whoever opens a checkout
 * can write. custom_data naming another subscription than the ids do makes the event unmatched.
 */
async function findSubscription(tx: Db, ids: { transactionId?: string | null; vendorSubscriptionId?: string | null; customId?: string }): Promise<SubscriptionRow | null> {
  let row: SubscriptionRow | undefined;
  if (ids.transactionId) [row] = await tx.select().from(subscriptions).where(eq(subscriptions.checkoutTransactionId, ids.transactionId)).for('update');
  if (!row && ids.vendorSubscriptionId) [row] = await tx.select().from(subscriptions).where(eq(subscriptions.vendorSubscriptionId, ids.vendorSubscriptionId)).for('update');
  if (!row) return null;
  if (ids.customId && UUID.test(ids.customId) && ids.customId !== row.id) return null;
  return row;
}

/** Whether the checkout's own transaction has completed for the stored price (currency, amount before tax). */
async function checkoutPaid(tx: Db, sub: SubscriptionRow): Promise<boolean> {
  if (!sub.checkoutTransactionId) return false;
  const [paid] = await tx
    .select({ currency: transactions.currency, total: transactions.total, tax: transactions.tax })
    .from(transactions)
    .where(and(eq(transactions.vendorTransactionId, sub.checkoutTransactionId), eq(transactions.subscriptionId, sub.id), eq(transactions.status, 'completed')));
  return Boolean(paid && paid.currency === sub.quote.currency && decimalToCents(paid.total) - decimalToCents(paid.tax) === decimalToCents(sub.quote.total) - decimalToCents(sub.quote.tax));
}

/**
 * A pending subscription becomes active: its first payment is confirmed. A change that waited for
 * it (a free server made paid) is applied to the server now, and the server is provisioned or resized.
 */
async function activate(tx: Db, sub: SubscriptionRow, event: PaddleEvent, hooks: SettlementHooks) {
  // The checkout is done: the next one (a card update when past due) opens a transaction of its own.
  await tx.update(subscriptions).set({ status: 'active', pendingChange: null, checkoutTransactionId: null, updatedAt: new Date() }).where(eq(subscriptions.id, sub.id));
  await recordAudit(tx, { actor: null, action: 'subscription.status', targetType: 'subscription', targetId: sub.id, companyId: sub.companyId, before: { status: sub.status }, after: { status: 'active', event: event.event_type, eventId: event.event_id } });
  const [server] = await tx.select({ id: deployments.id, status: deployments.status }).from(deployments).where(eq(deployments.id, sub.deploymentId)).for('update');
  if (!server) return;
  const change = sub.pendingChange;
  if (change) {
    await tx.update(deployments).set({ planId: change.planId, planCode: change.planCode, planConfig: change.planConfig, paymentCycle: change.paymentCycle, free: change.free, updatedAt: new Date() }).where(eq(deployments.id, server.id));
    await recordAudit(tx, { actor: null, action: 'deployment.planChange', targetType: 'deployment', targetId: server.id, companyId: sub.companyId, after: { planCode: change.planCode, paid: true } });
  }
  // Provisioning moves the status, enqueues the task and audits both, in this transaction.
  await hooks.settled(tx, server.id);
}

const date = (s: string | null | undefined) => (s ? new Date(s) : null);

/**
 * A cancellation set or withdrawn at the vendor (a server deleted, or kept or restored) goes on
 * the server's timeline and in the audit log, so the customer and support see billing stop and resume.
 */
async function recordBillingChange(tx: Db, sub: SubscriptionRow, next: ScheduledChange | null, source: { event: string; eventId: string | null }) {
  const was = sub.scheduledChange?.action === 'cancel';
  const is = next?.action === 'cancel';
  if (was === is) return;
  await recordEvent(tx, sub.deploymentId, is ? 'billing_stopped' : 'billing_resumed', { message: is ? (next?.effective_at ?? null) : null });
  await recordAudit(tx, { actor: null, action: 'subscription.scheduledChange', targetType: 'subscription', targetId: sub.id, companyId: sub.companyId, before: { scheduledChange: sub.scheduledChange ?? null }, after: { scheduledChange: next, ...source } });
}

/**
 * Paddle accepted a cancellation at the period end (or its withdrawal): kept at once, so every
 * screen says so before Paddle's subscription.updated confirms it (which then changes nothing).
 */
export async function noteScheduledChange(db: Db, subscriptionId: string, next: ScheduledChange | null, event: string) {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)).for('update');
    if (!row) return;
    await tx.update(subscriptions).set({ scheduledChange: next, updatedAt: new Date() }).where(eq(subscriptions.id, row.id));
    await recordBillingChange(tx, row, next, { event, eventId: null });
  });
}

/** What the running-servers side does when an order is settled (in the event's transaction). */
export interface SettlementHooks {
  settled(tx: Db, deploymentId: string): Promise<void>;
}

async function applySubscription(tx: Db, event: PaddleEvent, occurredAt: Date, hooks: SettlementHooks): Promise<EventOutcome> {
  const parsed = paddleSubscriptionSchema.safeParse(event.data);
  if (!parsed.success) return 'invalid';
  const data = parsed.data;
  const sub = await findSubscription(tx, { transactionId: data.transaction_id, vendorSubscriptionId: data.id, customId: data.custom_data?.subscriptionId });
  if (!sub) return 'unmatched';
  // Paddle does not promise order: an event older than the last one applied would move it back.
  if (sub.lastEventAt && occurredAt < sub.lastEventAt) return 'stale';
  let status = STATUS[data.status] ?? sub.status;
  const activates = sub.status === 'pending' && status === 'active';
  if (activates) {
    // A first payment settles only the price we stored; the payment itself is the checkout's transaction.
    const items = (data.items ?? []).map((i) => Number(i.price.unit_price.amount) * i.quantity);
    const currency = data.currency_code ?? data.items?.[0]?.price.unit_price.currency_code ?? '';
    if (!data.items || !priceMatchesQuote(sub.quote, { currency, items })) return 'mismatch';
    // Held pending until that transaction has completed (it may arrive before or after this).
    if (!(await checkoutPaid(tx, sub))) status = 'pending';
  }
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
  await recordBillingChange(tx, sub, data.scheduled_change ?? null, { event: event.event_type, eventId: event.event_id });
  if (activates && status === 'active') {
    await activate(tx, { ...sub, status: 'pending' }, event, hooks);
  } else if (status !== sub.status) {
    await recordAudit(tx, { actor: null, action: 'subscription.status', targetType: 'subscription', targetId: sub.id, companyId: sub.companyId, before: { status: sub.status }, after: { status, event: event.event_type, eventId: event.event_id } });
  }
  return 'applied';
}

const cents = (minor: string) => centsToDecimal(Number(minor));

function cardOf(data: PaddleTransaction): CardSummary | null {
  const card = data.payments.find((p) => p.method_details?.card)?.method_details?.card;
  return card ? { brand: card.type, last4: card.last4, expiryMonth: card.expiry_month, expiryYear: card.expiry_year, setAt: data.billed_at ?? new Date().toISOString() } : null;
}

async function applyTransaction(tx: Db, event: PaddleEvent, hooks: SettlementHooks, seller: InvoiceParty): Promise<EventOutcome> {
  const parsed = paddleTransactionSchema.safeParse(event.data);
  if (!parsed.success) return 'invalid';
  const data = parsed.data;
  const sub = await findSubscription(tx, { transactionId: data.id, vendorSubscriptionId: data.subscription_id, customId: data.custom_data?.subscriptionId });
  if (!sub) return 'unmatched';
  const totals = data.details.totals;
  // "Update card" through Paddle's checkout: no money moved, so no transaction to list; only the card changes.
  if (data.origin === 'subscription_payment_method_change') {
    const newCard = cardOf(data);
    if (data.status !== 'completed' || !newCard) return 'ignored';
    const before = await companyCard(tx, sub.companyId);
    await tx.update(subscriptions).set({ card: newCard, vendorCustomerId: data.customer_id ?? sub.vendorCustomerId, updatedAt: new Date() }).where(eq(subscriptions.id, sub.id));
    await recordAudit(tx, { actor: null, action: 'company.cardUpdate', targetType: 'company', targetId: sub.companyId, companyId: sub.companyId, before: before ? { brand: before.brand, last4: before.last4 } : null, after: { brand: newCard.brand, last4: newCard.last4, event: event.event_type, eventId: event.event_id } });
    return 'applied';
  }
  const ownCheckout = sub.status === 'pending' && data.id === sub.checkoutTransactionId;
  const lines = data.details.line_items.map((l) => Number(l.totals?.subtotal ?? l.totals?.total ?? '0'));
  const matches = priceMatchesQuote(sub.quote, { currency: data.currency_code, items: lines, net: Number(totals.total) - Number(totals.tax) });
  // The checkout's transaction paid: the order is settled once the vendor's subscription exists.
  if (ownCheckout && data.status === 'completed' && matches && sub.vendorSubscriptionId) await activate(tx, sub, event, hooks);
  const [owner] = await tx.select({ email: users.email }).from(deployments).innerJoin(users, eq(users.id, deployments.createdBy)).where(eq(deployments.id, sub.deploymentId));
  const card = cardOf(data);
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
        period: data.billing_period ? { from: data.billing_period.starts_at, to: data.billing_period.ends_at } : null,
      },
    })
    .onConflictDoNothing({ target: transactions.vendorTransactionId })
    .returning({ id: transactions.id });
  if (recorded) {
    // Its invoice is issued now, frozen and numbered with the payment: nothing later changes it.
    await issueInvoice(tx, recorded.id, seller);
    const after = { vendorTransactionId: data.id, total: cents(totals.total), currency: data.currency_code, origin: data.origin ?? null, status: data.status };
    await recordAudit(tx, { actor: null, action: 'subscription.payment', targetType: 'subscription', targetId: sub.id, companyId: sub.companyId, after });
  }
  if (card) await tx.update(subscriptions).set({ card, vendorCustomerId: data.customer_id ?? sub.vendorCustomerId }).where(eq(subscriptions.id, sub.id));
  // A card update of a past-due subscription completed: its checkout is closed.
  if (!ownCheckout && data.id === sub.checkoutTransactionId && data.status === 'completed') await tx.update(subscriptions).set({ checkoutTransactionId: null }).where(eq(subscriptions.id, sub.id));
  // Recorded (money moved) but settling nothing: the amount is not the price we stored.
  return ownCheckout && !matches ? 'mismatch' : 'applied';
}

const SUBSCRIPTION_EVENTS = new Set(['subscription.created', 'subscription.activated', 'subscription.updated', 'subscription.past_due', 'subscription.paused', 'subscription.resumed', 'subscription.canceled', 'subscription.trialing']);

/**
 * Stores a verified notification once (its event_id is unique) and applies it in the same
 * transaction: if applying fails, nothing is kept and Paddle's retry gets another chance. A
 * duplicate delivery finds the event stored and does nothing.
 */
export async function recordAndApply(db: Db, event: PaddleEvent, hooks: SettlementHooks, seller: InvoiceParty): Promise<{ duplicate: boolean; outcome: EventOutcome | 'duplicate' }> {
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
        ? await applyTransaction(tx, event, hooks, seller)
        : 'ignored';
    await tx.update(paymentEvents).set({ processedAt: new Date(), outcome }).where(eq(paymentEvents.id, stored.id));
    return { duplicate: false, outcome };
  });
}
