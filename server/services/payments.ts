import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { TFunction } from 'i18next';
import { rebill, type Taxed } from '../../src/domain/billing/tax';
import { centsToDecimal } from '../../src/domain/money';
import type { SubscriptionQuote } from '../../src/domain/orders/schemas';
import { periodEnd } from '../../src/domain/orders/changes';
import { paddleEventSchema, standInCardOutcome, type CheckoutSummary, type PaddleEvent, type ScheduledChange, type PaymentsClientConfig, type StandInPayBody, type CardSummary } from '../../src/domain/payments/schemas';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { subscriptions } from '../db/schema';
import { AppError } from '../errors';
import { recordAudit, type AuditActor } from './audit';
import { companyCard, putCardOnFile } from './cardOnFile';
import { loadOwnedDeployment, subscriptionDto } from './orderQuotes';
import type { Members } from './companies';
import { createPaddleClient } from './paddle/client';
import { noteScheduledChange, recordAndApply, type SettlementHooks } from './paddle/events';
import { verifyPaddleSignature, signPaddleBody } from './paddle/signature';
import { newVendorCustomerId, newVendorSubscriptionId, newVendorTransactionId, subscriptionEvent, transactionCompletedEvent } from './paddle/standIn';
import type { RateCounters } from './rateCounters';
import { sellerParty } from './invoices';
import { companyTaxBasis } from './taxBasis';

type SubscriptionRow = typeof subscriptions.$inferSelect;
type Ids = { deploymentId: string; subscriptionId: string; companyId: string };

/** What orders need from the payment vendor: Paddle's API, or the local stand-in. */
export interface PaymentGateway {
  mode: 'paddle' | 'stand-in';
  /**
   * Paddle mode: the transaction a checkout for this subscription opens now (its order, or a card
   * update when past due): the open one when there is one, else a new one (the caller stores it).
   */
  checkoutTransaction(sub: SubscriptionRow, ids: Ids): Promise<string | null>;
  /**
   * A terminated server stops being billed: its subscription is cancelled at the end of the period
   * already paid (a restore within the window calls `keep`, which withdraws that cancellation).
   * Only a subscription at the vendor is touched; free and never-paid ones have nothing to stop.
   */
  cancelAtPeriodEnd(sub: SubscriptionRow): Promise<void>;
  keep(sub: SubscriptionRow): Promise<void>;
  /**
   * A change to a paid subscription, prorated now (dueNow: what is charged, taxed on the company's
   * current basis; null when nothing is); may return work to run once the change is committed.
   */
  changeSubscription(vendorSubscriptionId: string, sub: SubscriptionRow, quote: SubscriptionQuote, dueNow: Taxed | null): Promise<(() => Promise<void>) | null>;
  /** Paddle's own invoice PDF of a transaction it charged; null when we issue the invoice (stand-in). */
  invoiceUrl(vendorTransactionId: string): Promise<string | null>;
  /**
   * "Update card" with Paddle: the subscription's update-payment-method transaction, which Paddle's
   * checkout opens; null for the stand-in, whose card form updates the card itself.
   */
  cardUpdateTransaction(vendorSubscriptionId: string): Promise<string | null>;
  /** An order removed unpaid: its open checkout transaction is cancelled, so it can take no money later. */
  abandonCheckout(checkoutTransactionId: string | null): Promise<void>;
}


/** A subscription the vendor bills: one it knows, not cancelled, not waiting for a first payment. */
function billed(sub: SubscriptionRow): sub is SubscriptionRow & { vendorSubscriptionId: string } {
  return sub.vendorSubscriptionId !== null && ['active', 'past_due', 'paused'].includes(sub.status);
}

/** The subscription.updated Paddle sends when a scheduled change is set or withdrawn, as the stand-in plays it. */
function standInUpdate(sub: SubscriptionRow & { vendorSubscriptionId: string }, scheduledChange: ScheduledChange | null): PaddleEvent {
  const ids = { deploymentId: sub.deploymentId, subscriptionId: sub.id, companyId: sub.companyId };
  return subscriptionEvent('subscription.updated', {
    vendorSubscriptionId: sub.vendorSubscriptionId,
    customerId: sub.vendorCustomerId ?? newVendorCustomerId(),
    quote: sub.quote,
    periodStart: sub.currentPeriodStart ?? new Date(),
    ids,
    at: new Date(),
    status: sub.status === 'past_due' ? 'past_due' : sub.status === 'paused' ? 'paused' : 'active',
    scheduledChange,
  });
}

/** The subscription states a checkout pays, and why. */
const PAYMENT_DUE: Partial<Record<SubscriptionRow['status'], 'order' | 'pastDue'>> = { pending: 'order', past_due: 'pastDue' };

/** The card on file as the stand-in charges it: good through the last day of its expiry month. */
function onFileOutcome(card: CardSummary, now: Date): { ok: true; brand: string; expiryMonth: number; expiryYear: number } | { ok: false; reason: 'expiredCard' } {
  if (card.expiryYear * 12 + card.expiryMonth < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) return { ok: false, reason: 'expiredCard' };
  return { ok: true, brand: card.brand, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear };
}

/** Declined stand-in payments per user and hour: card testing stops here. */
const DECLINES_PER_HOUR = 20;

export function createPaymentsService({ db, members, config, counters, t, log, hooks }: { db: Db; members: Members; config: Config; counters: RateCounters; t: TFunction; log: FastifyBaseLogger; hooks: SettlementHooks }) {
  const paddle = config.payments === 'paddle' ? createPaddleClient(config) : null;
  // Without Paddle, a secret made at start signs the stand-in's notifications: nothing to configure.
  const secret = paddle ? (config.PADDLE_WEBHOOK_SECRET as string) : randomBytes(32).toString('hex');
  const seller = sellerParty(config);

  /** Verifies a notification, stores it once and applies it: the webhook route and the stand-in both come here. */
  async function receiveWebhook(signature: string | string[] | undefined, rawBody: unknown) {
    if (!Buffer.isBuffer(rawBody)) throw new AppError('WEBHOOK_PAYLOAD_INVALID');
    const failure = verifyPaddleSignature(signature, rawBody, secret, config.PADDLE_WEBHOOK_TOLERANCE_SECONDS);
    if (failure) {
      log.warn({ reason: failure }, 'payment notification refused: signature');
      throw new AppError('WEBHOOK_SIGNATURE_INVALID');
    }
    let json: unknown;
    try {
      json = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw new AppError('WEBHOOK_PAYLOAD_INVALID');
    }
    const event = paddleEventSchema.safeParse(json);
    if (!event.success) throw new AppError('WEBHOOK_PAYLOAD_INVALID');
    const result = await recordAndApply(db, event.data, hooks, seller);
    log.info({ eventType: event.data.event_type, eventId: event.data.event_id, outcome: result.outcome }, 'payment notification');
    return { received: true as const, ...result };
  }

  /**
   * The stand-in's notifications: signed with this process's secret and taken exactly as Paddle's
   * are (signature check, parse, store once, apply), so the worker process can send them too.
   */
  async function send(events: PaddleEvent[]) {
    for (const event of events) {
      const raw = Buffer.from(JSON.stringify(event));
      await receiveWebhook(signPaddleBody(secret, raw), raw);
    }
  }

  const gateway: PaymentGateway = paddle
    ? {
        mode: 'paddle',
        async checkoutTransaction(sub, ids) {
          // Reused: opening the checkout again must not make another transaction at Paddle.
          if (sub.checkoutTransactionId) return sub.checkoutTransactionId;
          if (sub.status === 'past_due' && sub.vendorSubscriptionId) return (await paddle.updatePaymentMethodTransaction(sub.vendorSubscriptionId)).id;
          if (sub.status === 'pending') return (await paddle.createTransaction({ lines: sub.quote.lines, cycle: sub.quote.cycle, customData: ids, discount: sub.quote.discount })).id;
          return null;
        },
        async cancelAtPeriodEnd(sub) {
          if (!billed(sub) || sub.scheduledChange?.action === 'cancel') return;
          await paddle.cancelSubscription(sub.vendorSubscriptionId);
          const effectiveAt = (sub.currentPeriodEnd ?? sub.nextBilledAt ?? new Date()).toISOString();
          await noteScheduledChange(db, sub.id, { action: 'cancel', effective_at: effectiveAt, resume_at: null }, 'paddle.cancel');
        },
        async keep(sub) {
          if (!billed(sub) || sub.scheduledChange?.action !== 'cancel') return;
          await paddle.removeScheduledChange(sub.vendorSubscriptionId);
          await noteScheduledChange(db, sub.id, null, 'paddle.removeScheduledChange');
        },
        async changeSubscription(vendorSubscriptionId, _sub, quote) {
          // Paddle charges the prorated difference and then notifies subscription.updated and transaction.completed.
          await paddle.updateSubscription(vendorSubscriptionId, { lines: quote.lines, cycle: quote.cycle });
          return null;
        },
        async invoiceUrl(vendorTransactionId) {
          return paddle.invoiceUrl(vendorTransactionId);
        },
        async cardUpdateTransaction(vendorSubscriptionId) {
          return (await paddle.updatePaymentMethodTransaction(vendorSubscriptionId)).id;
        },
        async abandonCheckout(checkoutTransactionId) {
          if (checkoutTransactionId) await paddle.cancelTransaction(checkoutTransactionId);
        },
      }
    : {
        mode: 'stand-in',
        async checkoutTransaction() {
          return null;
        },
        async cancelAtPeriodEnd(sub) {
          if (!billed(sub) || !sub.currentPeriodEnd || sub.scheduledChange?.action === 'cancel') return;
          await send([standInUpdate(sub, { action: 'cancel', effective_at: sub.currentPeriodEnd.toISOString(), resume_at: null })]);
        },
        async keep(sub) {
          if (billed(sub) && sub.scheduledChange?.action === 'cancel') await send([standInUpdate(sub, null)]);
        },
        async changeSubscription(vendorSubscriptionId, sub, quote, dueNow) {
          return async () => {
            const at = new Date();
            const ids = { deploymentId: sub.deploymentId, subscriptionId: sub.id, companyId: sub.companyId };
            const customerId = sub.vendorCustomerId ?? newVendorCustomerId();
            // A new billing cycle starts a new period now; otherwise the period runs on.
            const periodStart = sub.cycle === quote.cycle && sub.currentPeriodStart ? sub.currentPeriodStart : at;
            const events = [subscriptionEvent('subscription.updated', { vendorSubscriptionId, customerId, quote, periodStart, ids, at })];
            if (dueNow && dueNow.gross > 0 && sub.card) {
              // The invoice carries the charge the review said: its net, tax and gross.
              const totals = { subtotal: centsToDecimal(dueNow.net), discount: '0.00', tax: centsToDecimal(dueNow.tax), total: centsToDecimal(dueNow.gross) };
              // It pays for the rest of the current period (a new cycle: the new period).
              const period = { from: at, to: periodEnd(periodStart, quote.cycle) };
              events.push(transactionCompletedEvent({ vendorSubscriptionId, customerId, totals, lines: [{ name: t('payments.prorationLine'), amount: totals.subtotal }], currency: quote.currency, card: sub.card, origin: 'subscription_update', ids, at: new Date(at.getTime() + 1), period }));
            }
            await send(events);
          };
        },
        async invoiceUrl() {
          return null;
        },
        async cardUpdateTransaction() {
          return null;
        },
        async abandonCheckout() {
          // The stand-in's checkout lives in our own modal: nothing is left open anywhere else.
        },
      };

  return {
    gateway,

    clientConfig(): PaymentsClientConfig {
      // 'off' too: the browser then says paid plans cannot be paid for, instead of a card form we refuse.
      return paddle ? { mode: 'paddle', environment: config.PADDLE_ENV, clientToken: config.PADDLE_CLIENT_TOKEN ?? null } : { mode: config.payments === 'off' ? 'off' : 'stand-in', environment: null, clientToken: null };
    },

    /** POST /payments/paddle/webhook: verify, store once, apply. A failed check changes nothing. */
    receiveWebhook,

    /**
     * GET /payments/checkout/{deploymentId}: what the payment modal shows before paying, and what
     * is due: a pending order's first payment, or a past-due renewal (paid with a new card).
     */
    async checkoutSummary(actor: AuditActor, { deploymentId }: { deploymentId: string }): Promise<CheckoutSummary> {
      const { email } = actor;
      // Admins only: opening a checkout can make a transaction at Paddle, which only a payer needs.
      const { deployment, subscription } = await loadOwnedDeployment(db, members, deploymentId, actor.id, 'billing');
      // What is due is billed on the company's current basis, as the payment itself is (standInPay).
      const basis = await companyTaxBasis(db, deployment.companyId, config.SELLER_TAX_ID);
      const quote = rebill(subscription.quote, basis);
      const purpose = PAYMENT_DUE[subscription.status] ?? null;
      const ids = { deploymentId: deployment.id, subscriptionId: subscription.id, companyId: deployment.companyId };
      const transactionId = purpose ? await gateway.checkoutTransaction(subscription, ids) : null;
      if (transactionId && transactionId !== subscription.checkoutTransactionId) {
        // Kept only while nothing else was stored meanwhile: two tabs end up on the same transaction.
        await db.transaction(async (tx) => {
          const [kept] = await tx.update(subscriptions).set({ checkoutTransactionId: transactionId }).where(and(eq(subscriptions.id, subscription.id), isNull(subscriptions.checkoutTransactionId))).returning({ id: subscriptions.id });
          if (kept) await recordAudit(tx, { actor: { id: actor.id, email }, action: 'subscription.checkout', targetType: 'subscription', targetId: subscription.id, companyId: deployment.companyId, after: { transactionId, purpose } });
        });
      }
      return {
        mode: gateway.mode,
        deploymentId: deployment.id,
        companyId: deployment.companyId,
        name: deployment.name,
        paymentRequired: purpose !== null,
        purpose,
        transactionId,
        status: subscription.status,
        cycle: quote.cycle,
        items: quote.lines,
        subtotal: quote.subtotal,
        discount: quote.discount,
        tax: quote.tax,
        total: { amount: quote.total, currency: quote.currency },
        taxBasis: basis,
        customer: { email },
        // Paddle's own checkout offers the customer's saved card; the stand-in offers the one on file.
        cardOnFile: purpose && !paddle ? await companyCard(db, deployment.companyId) : null,
      };
    },

    /**
     * POST /payments/checkout/{deploymentId}/pay (stand-in only): charges a test card and, as
     * Paddle does, notifies through the webhook route: for a new order subscription.created,
     * subscription.activated and transaction.completed; for a past-due subscription the overdue
     * renewal's transaction.completed (the new card goes on file) and subscription.updated back to
     * active. A declined card changes nothing and says why. `card` is a new card, which then goes
     * on file for the company, or 'onFile': the company's card on file, which stays as it is.
     */
    async standInPay(actor: AuditActor, { deploymentId, card: body }: { deploymentId: string; card: StandInPayBody | 'onFile' }) {
      const userId = actor.id;
      if (paddle) throw new AppError('NOT_FOUND');
      const { deployment, subscription: sub } = await loadOwnedDeployment(db, members, deploymentId, userId, 'billing');
      // Production without Paddle: test cards must not activate anything unless the operator said so.
      if (config.payments !== 'stand-in') throw new AppError('PAYMENTS_UNAVAILABLE');
      const purpose = PAYMENT_DUE[sub.status];
      if (!purpose) throw new AppError('PAYMENT_NOT_DUE');
      const limit = { max: DECLINES_PER_HOUR, windowMinutes: 60 };
      await counters.check(`checkout:user:${userId}`, limit);
      const given = body === 'onFile' ? null : body;
      const before = await companyCard(db, deployment.companyId);
      const onFile = given ? null : before;
      if (!given && !onFile) throw new AppError('NO_CARD_ON_FILE');
      const outcome = given ? standInCardOutcome(given, new Date()) : onFileOutcome(onFile as CardSummary, new Date());
      if (!outcome.ok) {
        await counters.hit(`checkout:user:${userId}`, limit);
        const reason = `payments.declined.${outcome.reason}`;
        throw new AppError('PAYMENT_DECLINED', { fieldErrors: { cardNumber: [reason] }, params: { reason: t(reason) } });
      }
      const at = new Date();
      const ids = { deploymentId: deployment.id, subscriptionId: sub.id, companyId: deployment.companyId };
      const customerId = sub.vendorCustomerId ?? newVendorCustomerId();
      // The company's current billing country from this bill on: the stored net, taxed by the one rule.
      const basis = await companyTaxBasis(db, deployment.companyId, config.SELLER_TAX_ID);
      const quote = rebill(sub.quote, basis);
      const card = onFile ?? { brand: outcome.brand, last4: given?.cardNumber.slice(-4) ?? '', expiryMonth: outcome.expiryMonth, expiryYear: outcome.expiryYear, setAt: at.toISOString(), cardholderName: given?.cardholderName };
      const later = (ms: number) => new Date(at.getTime() + ms);
      const renewal = purpose === 'pastDue' ? sub.vendorSubscriptionId : null;
      if (renewal) {
        // The overdue renewal of the current period is collected; the period itself does not move.
        const periodStart = sub.currentPeriodStart ?? at;
        await send([
          transactionCompletedEvent({ vendorSubscriptionId: renewal, customerId, totals: quote, lines: quote.lines, currency: quote.currency, card, origin: 'subscription_recurring', ids, at, period: { from: periodStart, to: sub.currentPeriodEnd ?? periodEnd(periodStart, quote.cycle) } }),
          subscriptionEvent('subscription.updated', { vendorSubscriptionId: renewal, customerId, quote, periodStart, ids, at: later(1) }),
        ]);
      } else {
        // As with Paddle, the notifications name the checkout's transaction, by which they are matched.
        const transactionId = sub.checkoutTransactionId ?? newVendorTransactionId();
        if (!sub.checkoutTransactionId) await db.update(subscriptions).set({ checkoutTransactionId: transactionId }).where(eq(subscriptions.id, sub.id));
        const vendorSubscriptionId = newVendorSubscriptionId();
        await send([
          subscriptionEvent('subscription.created', { vendorSubscriptionId, customerId, quote, periodStart: at, ids, at, transactionId }),
          subscriptionEvent('subscription.activated', { vendorSubscriptionId, customerId, quote, periodStart: at, ids, at: later(1), transactionId }),
          transactionCompletedEvent({ vendorSubscriptionId, customerId, totals: quote, lines: quote.lines, currency: quote.currency, card, origin: 'web', ids, at: later(2), transactionId, period: { from: at, to: periodEnd(at, quote.cycle) } }),
        ]);
      }
      // A new card goes on file for the company; the card on file stays exactly as it was.
      await putCardOnFile(db, actor, deployment.companyId, { brand: card.brand, last4: card.last4, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear, setAt: card.setAt }, onFile ? null : { before });
      const [updated] = await db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
      return { status: 'completed' as const, subscription: subscriptionDto(updated ?? sub, config.PAST_DUE_GRACE_DAYS, basis) };
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
