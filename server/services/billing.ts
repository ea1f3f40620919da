import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import { pendingOrderRemovalAt } from '../../src/domain/orders/pendingOrders';
import type { PastDueDeployment } from '../../src/domain/orders/schemas';
import { cardOnFile, standInCardOutcome, type CardCheckoutAnswer, type CardSummary, type CompanyBilling, type StandInPayBody, type TransactionDto } from '../../src/domain/payments/schemas';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { deploymentRuntime, deployments, subscriptions, transactions } from '../db/schema';
import { AppError } from '../errors';
import type { Members } from './companies';
import { subscriptionDto } from './orderQuotes';
import { companyTaxBasis, lastTaxChange } from './taxBasis';
import { UUID } from './plans';
import type { RateCounters } from './rateCounters';
import { recordAudit, type AuditActor } from './audit';
import { companyCard, putCardOnFile } from './cardOnFile';
import type { TFunction } from 'i18next';
import { renderInvoiceHtml, renderReceiptHtml } from './invoiceHtml';
import { createInvoiceLinkCache } from './invoiceLinks';
import { freezeLegacyInvoice, sellerParty } from './invoices';
import type { PaymentGateway } from './payments';

const DAY_MS = 86_400_000;

function transactionDto(row: typeof transactions.$inferSelect): TransactionDto {
  return {
    _id: row.id,
    deploymentId: row.deploymentId,
    subscriptionId: row.subscriptionId,
    vendorTransactionId: row.vendorTransactionId,
    invoiceNumber: row.invoiceNumber,
    status: row.status,
    currency: row.currency,
    subtotal: row.subtotal,
    discount: row.discount,
    tax: row.tax,
    total: row.total,
    billedAt: row.billedAt.toISOString(),
  };
}

/** Management → Billing and the past-due banner: reads for members of the company. */
/** Declined card updates per user and hour, as for stand-in payments: card testing stops here. */
const DECLINES_PER_HOUR = 20;

/** An order never paid (the pending-orders schedule removes it, unless already being deleted): when it was placed and when it goes. */
function pendingOrderOf(subscription: string, server: string, orderedAt: Date, deletingOn: Date | null) {
  return subscription === 'pending' && server === 'provisioned' && !deletingOn ? { orderedAt: orderedAt.toISOString(), removedOn: pendingOrderRemovalAt(orderedAt).toISOString() } : null;
}

/**
 * Whether some server still bills on and has not been billed since `at` (a tax basis change): its
 * next bill is the first on the new basis, which the billing page then says.
 */
function firstBillSince(at: Date, subs: { sub: { id: string; status: string }; free: boolean; status: string; deletingOn: Date | null }[], txs: { subscriptionId: string | null; billedAt: Date }[]): boolean {
  const lastBilled = new Map<string, number>();
  for (const tx of txs) if (tx.subscriptionId) lastBilled.set(tx.subscriptionId, Math.max(lastBilled.get(tx.subscriptionId) ?? 0, tx.billedAt.getTime()));
  return subs.some((s) => !s.free && !s.deletingOn && s.status !== 'deleted' && s.sub.status !== 'canceled' && (lastBilled.get(s.sub.id) ?? 0) < at.getTime());
}

export function createBillingService({ db, members, config, counters, t, gateway }: { db: Db; members: Members; config: Config; counters: RateCounters; t: TFunction; gateway: Pick<PaymentGateway, 'invoiceUrl' | 'cardUpdateTransaction'> }) {
  const invoiceLinks = createInvoiceLinkCache((vendorTransactionId) => gateway.invoiceUrl(vendorTransactionId));
  return {
    /** GET /deployments/pastdue/{company}: servers whose subscription is past due, with the pause date. */
    async pastDue(actor: AuditActor, { companyId }: { companyId: string }): Promise<PastDueDeployment[]> {
      await members.require(companyId, actor.id);
      const rows = await db
        .select({ id: deployments.id, name: deployments.name, since: subscriptions.pastDueSince })
        .from(subscriptions)
        .innerJoin(deployments, eq(deployments.id, subscriptions.deploymentId))
        .where(and(eq(subscriptions.companyId, companyId), eq(subscriptions.status, 'past_due')))
        .orderBy(deployments.name);
      return rows.map((r) => {
        const since = r.since ?? new Date();
        return { _id: r.id, name: r.name, pastDueSince: since.toISOString(), pauseAfter: new Date(since.getTime() + config.PAST_DUE_GRACE_DAYS * DAY_MS).toISOString() };
      });
    },

    /** GET /companies/{id}/billing (admins): subscriptions, transactions, the card on file, past-due state. */
    async companyBilling(actor: AuditActor, { companyId }: { companyId: string }): Promise<CompanyBilling> {
      await members.require(companyId, actor.id, 'billing');
      const [subs, txs] = await Promise.all([
        db
          .select({ sub: subscriptions, name: deployments.name, free: deployments.free, status: deployments.status, orderedAt: deployments.createdAt, deletingOn: deploymentRuntime.terminationScheduledAt })
          .from(subscriptions)
          .innerJoin(deployments, eq(deployments.id, subscriptions.deploymentId))
          .leftJoin(deploymentRuntime, eq(deploymentRuntime.deploymentId, subscriptions.deploymentId))
          .where(eq(subscriptions.companyId, companyId))
          .orderBy(desc(subscriptions.createdAt)),
        db.select().from(transactions).where(eq(transactions.companyId, companyId)).orderBy(desc(transactions.billedAt)).limit(200),
      ]);
      const [basis, change] = await Promise.all([companyTaxBasis(db, companyId, config.SELLER_TAX_ID), lastTaxChange(db, companyId, config.SELLER_TAX_ID)]);
      const dtos = subs.map((s) => ({ ...subscriptionDto(s.sub, config.PAST_DUE_GRACE_DAYS, basis), deploymentName: s.name, free: s.free, deletingOn: s.deletingOn?.toISOString() ?? null, deleted: s.status === 'deleted', pendingOrder: pendingOrderOf(s.sub.status, s.status, s.orderedAt, s.deletingOn) }));
      const pastDue = dtos.filter((s) => s.status === 'past_due' && s.pastDueSince);
      const since = pastDue.map((s) => s.pastDueSince as string).sort()[0] ?? null;

      return {
        subscriptions: dtos,
        transactions: txs.map(transactionDto),
        // The card the customer gave last: a server deleted or restored since changes nothing here.
        card: cardOnFile(subs.map((s) => s.sub.card)),
        pastDue: { count: pastDue.length, since, pauseAfter: since ? new Date(new Date(since).getTime() + config.PAST_DUE_GRACE_DAYS * DAY_MS).toISOString() : null },
        taxBasis: basis,
        taxChange: change && firstBillSince(change.at, subs, txs) ? { from: change.from, to: change.to, at: change.at.toISOString() } : null,
      };
    },

    /**
     * POST /companies/{id}/billing/card (stand-in): "Update card" at any time. The new card goes on
     * file for every subscription of the company (renewals and payments use it); a declined card
     * changes nothing and says why. With Paddle, its own checkout updates the card (not here).
     */
    async updateCard(actor: AuditActor, input: { companyId: string; card: StandInPayBody }): Promise<{ card: CardSummary }> {
      if (config.payments === 'paddle') throw new AppError('NOT_FOUND');
      await members.require(input.companyId, actor.id, 'billing');
      if (config.payments !== 'stand-in') throw new AppError('PAYMENTS_UNAVAILABLE');
      const limit = { max: DECLINES_PER_HOUR, windowMinutes: 60 };
      await counters.check(`checkout:user:${actor.id}`, limit);
      const outcome = standInCardOutcome(input.card, new Date());
      if (!outcome.ok) {
        await counters.hit(`checkout:user:${actor.id}`, limit);
        const reason = `payments.declined.${outcome.reason}`;
        throw new AppError('PAYMENT_DECLINED', { fieldErrors: { cardNumber: [reason] }, params: { reason: t(reason) } });
      }
      const card: CardSummary = { brand: outcome.brand, last4: input.card.cardNumber.slice(-4), expiryMonth: outcome.expiryMonth, expiryYear: outcome.expiryYear, setAt: new Date().toISOString() };
      await putCardOnFile(db, actor, input.companyId, card, { before: await companyCard(db, input.companyId) });
      return { card };
    },

    /**
     * POST /companies/{id}/billing/card/checkout (Paddle): "Update card" at any time. Paddle keeps the
     * card with a subscription, so its checkout updates the card of one billed subscription: a past-due
     * one first (the new card then collects what is overdue), else one that is not being cancelled,
     * newest first. The card on file changes when Paddle's transaction.completed names the new card.
     */
    async cardCheckout(actor: AuditActor, { companyId }: { companyId: string }): Promise<CardCheckoutAnswer> {
      if (config.payments !== 'paddle') throw new AppError('NOT_FOUND');
      await members.require(companyId, actor.id, 'billing');
      const billed = await db
        .select({ id: subscriptions.id, deploymentId: subscriptions.deploymentId, vendorSubscriptionId: subscriptions.vendorSubscriptionId, status: subscriptions.status, scheduledChange: subscriptions.scheduledChange })
        .from(subscriptions)
        .where(and(eq(subscriptions.companyId, companyId), isNotNull(subscriptions.vendorSubscriptionId), inArray(subscriptions.status, ['active', 'past_due', 'paused'])))
        .orderBy(desc(subscriptions.createdAt));
      const rank = (s: (typeof billed)[number]) => (s.status === 'past_due' ? 0 : s.scheduledChange?.action === 'cancel' ? 2 : 1);
      const chosen = [...billed].sort((a, b) => rank(a) - rank(b))[0];
      if (!chosen?.vendorSubscriptionId) throw new AppError('NO_BILLED_SUBSCRIPTION');
      const transactionId = await gateway.cardUpdateTransaction(chosen.vendorSubscriptionId);
      if (!transactionId) throw new AppError('NOT_FOUND');
      await recordAudit(db, { actor, action: 'company.cardCheckout', targetType: 'company', targetId: companyId, companyId, after: { transactionId, subscriptionId: chosen.id } });
      return { transactionId, deploymentId: chosen.deploymentId, email: actor.email };
    },

    /**
     * GET /companies/{id}/transactions/{txId}/receipt (admins of its company): the payment's receipt,
     * a printable page like the invoice: when and how it was paid (the card's brand and last 4
     * digits when known), the amount and the number of the invoice it pays, from the frozen invoice.
     */
    async receipt(actor: AuditActor, { companyId, transactionId }: { companyId: string; transactionId: string }): Promise<{ html: string }> {
      await members.require(companyId, actor.id, 'billing');
      const [row] = UUID.test(transactionId) ? await db.select().from(transactions).where(and(eq(transactions.id, transactionId), eq(transactions.companyId, companyId))) : [];
      if (!row) throw new AppError('TRANSACTION_NOT_FOUND');
      const invoice = row.invoice ?? (await freezeLegacyInvoice(db, row, sellerParty(config)));
      return { html: renderReceiptHtml({ invoice, paidAt: row.billedAt.toISOString(), card: row.receipt.card, reference: row.vendorTransactionId }, t) };
    },

    /**
     * GET /companies/{id}/transactions/{txId}/invoice (admins of its company, as receipts): Paddle's
     * own invoice PDF when Paddle took the payment (its link reused for its lifetime), else our
     * printable page, rendered only from the invoice frozen when the payment was recorded. Another
     * company's transaction reads as not found, so ids leak nothing.
     */
    async invoice(actor: AuditActor, input: { companyId: string; transactionId: string }): Promise<{ url: string } | { html: string }> {
      await members.require(input.companyId, actor.id, 'billing');
      const [tx] = UUID.test(input.transactionId) ? await db.select().from(transactions).where(and(eq(transactions.id, input.transactionId), eq(transactions.companyId, input.companyId))) : [];
      if (!tx) throw new AppError('TRANSACTION_NOT_FOUND');
      const url = await invoiceLinks.get(tx.vendorTransactionId);
      if (url) return { url };
      return { html: renderInvoiceHtml(tx.invoice ?? (await freezeLegacyInvoice(db, tx, sellerParty(config))), t) };
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;

/** A server's subscription, or null: the termination and restore tasks stop and resume its billing with it. */
export async function subscriptionOfServer(db: Db, deploymentId: string): Promise<typeof subscriptions.$inferSelect | null> {
  const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.deploymentId, deploymentId));
  return sub ?? null;
}
