import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { FieldErrors } from '../../src/domain/errors';
import { decimalToCents, centsToDecimal } from '../../src/domain/money';
import { applyTax, netOf, type Taxed } from '../../src/domain/billing/tax';
import { taxedAmount } from '../../src/domain/billing/schemas';
import { changeRefusals, prorate } from '../../src/domain/orders/changes';
import {
  NEW_ORDER_STATUS,
  type CreateDeploymentBody,
  type DataToVendor,
  type DeploymentOrderAnswer,
  type OrderChange,
  type OrderPreview,
  type OrderReview,
  type SubscriptionQuote,
} from '../../src/domain/orders/schemas';
import { mauFromPlanCode } from '../../src/domain/plans/planCode';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { deployments, discountCodes, discountUses, projects, subscriptions } from '../db/schema';
import { AppError } from '../errors';
import { recordAudit } from './audit';
import type { Members } from './companies';
import type { Idempotency } from './idempotency';
import { createOrderCheckouts } from './orderCheckouts';
import { loadOwnedDeployment, namedQuote, orderShape, provisionSummary, sizeValue, subscriptionDto } from './orderQuotes';
import type { PaymentGateway } from './payments';
import type { PlanDto } from '../../src/domain/plans/schemas';
import { UUID, type Plans } from './plans';
import { priceDeployment, type DiscountAttempts } from './pricing';
import type { Provisioning } from './provisioning';
import type { RateCounters } from './rateCounters';
import type { SessionUser } from './sessions';
import { companyTaxBasis } from './taxBasis';

export interface OrderContext {
  ip: string;
  /** Answer with SPEC §3 Payment params (query addProvisionSummary=1). */
  withSummary: boolean;
}

type Actor = Pick<SessionUser, 'id' | 'email'>;
type DeploymentRow = typeof deployments.$inferSelect;
type SubscriptionRow = typeof subscriptions.$inferSelect;

/**
 * Ordering and changing servers (SPEC §4 wizard submit): authorization for every id, prices from
 * the shared engine (never from the client), SPEC §4's change rules from src/domain, and the
 * deployment with its subscription written in one transaction. Paddle is called with no
 * transaction open: a change of a paid subscription before its transaction, an unpaid order's
 * checkout after it (orderCheckouts.ts).
 */
export function createOrderService({ db, members, plans, config, counters, idempotency, gateway, provisioning, log }: { db: Db; members: Members; plans: Plans; config: Config; counters: RateCounters; idempotency: Idempotency; gateway: PaymentGateway; provisioning: Provisioning; log: FastifyBaseLogger }) {
  const checkouts = createOrderCheckouts({ db, gateway, log });
  const orderLimit = { max: config.ORDERS_PER_USER_PER_HOUR, windowMinutes: 60 };

  const attemptsFor = (actor: Actor | null, ip: string): DiscountAttempts => ({
    counters,
    keys: [`ip:${ip}`, ...(actor ? [`user:${actor.id}`] : [])],
    limit: { max: config.DISCOUNT_CHECKS_PER_HOUR, windowMinutes: 60 },
  });

  /**
   * The order priced by the engine, with the tax of the company's billing country when one is
   * named. A company orders only plans its catalogue offers (its plan group's, else the public
   * ones; GET /plangroups/company/{id}/plans); `keepsPlan` lets a server keep the plan it has.
   */
  async function price(change: OrderChange, companyId: string | null, actor: Actor | null, ip: string, options: { keepsPlan?: string; countedCodes?: ReadonlySet<string> } = {}) {
    const plan = await plans.get(change.plan);
    if (!plan) throw AppError.validation({ plan: ['pricing.unknownPlan'] });
    if (companyId && plan._id !== options.keepsPlan && !(await plans.forCompany(companyId)).some((p) => p._id === plan._id)) {
      throw AppError.validation({ plan: ['orders.planNotOffered'] });
    }
    const buyer = companyId && actor ? await members.buyerTax(companyId, actor.id) : null;
    const priced = await priceDeployment(
      db,
      plans,
      { plan: change.plan, planConfig: change.planConfig, payment: { term: { cycle: change.paymentCycle } }, discountCode: change.discountCode },
      { now: new Date(), country: buyer?.country ?? null, taxId: buyer?.taxId ?? null, sellerTaxId: config.SELLER_TAX_ID, attempts: attemptsFor(actor, ip), countedCodes: options.countedCodes },
    );
    return { plan, priced, quote: await namedQuote(db, plan, priced), paymentRequired: decimalToCents(priced.total.amount) > 0 };
  }

  function checkVendor(vendor: OrderChange['paymentVendor'], paymentRequired: boolean) {
    if (vendor && (vendor === 'free') === paymentRequired) throw AppError.validation({ paymentVendor: ['orders.vendorMismatch'] });
    // Production without Paddle and without PAYMENTS_STAND_IN=true: nothing could take the payment.
    if (paymentRequired && config.payments === 'off') throw new AppError('PAYMENTS_UNAVAILABLE');
  }

  async function answer(tx: Db, deployment: DeploymentRow, sub: SubscriptionRow, email: string, withSummary: boolean, transactionId: string | null, charged: DeploymentOrderAnswer['charged'] = undefined): Promise<DeploymentOrderAnswer> {
    const paymentRequired = sub.status === 'pending';
    const dataToVendor: DataToVendor = {
      mode: gateway.mode,
      transactionId,
      items: sub.quote.lines.map((l) => ({ name: l.name, amount: l.amount, quantity: 1 })),
      customer: { email },
      customData: { deploymentId: deployment.id, subscriptionId: sub.id, companyId: deployment.companyId },
    };
    return {
      _id: deployment.id,
      status: deployment.status,
      flags: { free: deployment.free },
      paymentRequired,
      subscription: subscriptionDto(sub, config.PAST_DUE_GRACE_DAYS, await companyTaxBasis(tx, deployment.companyId, config.SELLER_TAX_ID)),
      ...(withSummary ? { provisionSummary: provisionSummary(sub.quote, (await sizeValue(tx, deployment.planConfig)) ?? mauFromPlanCode(deployment.planCode), dataToVendor) } : {}),
      ...(charged !== undefined ? { charged } : {}),
    };
  }

  /** An order's answer naming the Paddle transaction its checkout opens (made after the order committed). */
  function withCheckout(body: DeploymentOrderAnswer, transactionId: string | null): DeploymentOrderAnswer {
    const summary = body.provisionSummary;
    return summary ? { ...body, provisionSummary: { ...summary, dataToVendor: { ...summary.dataToVendor, transactionId } } } : body;
  }

  /**
   * A discount code counts once per subscription, however often its plan changes; the count is a
   * guarded update, so two orders racing for a code's last use cannot both take it.
   */
  async function countDiscountUse(tx: Db, subscriptionId: string, quote: SubscriptionQuote) {
    if (!quote.discountCode) return;
    const [first] = await tx.insert(discountUses).values({ subscriptionId, code: quote.discountCode }).onConflictDoNothing().returning({ code: discountUses.code });
    if (!first) return;
    const [counted] = await tx
      .update(discountCodes)
      .set({ uses: sql`${discountCodes.uses} + 1` })
      .where(and(eq(discountCodes.code, quote.discountCode), or(isNull(discountCodes.maxUses), lt(discountCodes.uses, discountCodes.maxUses))))
      .returning({ id: discountCodes.id });
    if (!counted) throw AppError.validation({ discountCode: ['pricing.discountExhausted'] });
  }

  /** Codes already counted for a subscription: pricing its changes must not call them used up. */
  async function countedCodes(subscriptionId: string) {
    const rows = await db.select({ code: discountUses.code }).from(discountUses).where(eq(discountUses.subscriptionId, subscriptionId));
    return new Set(rows.map((r) => r.code));
  }

  const loadOwned = (deploymentId: string, actor: Actor, role?: 'admin') => loadOwnedDeployment(db, members, deploymentId, actor.id, role);

  /** Everything a change is checked against, priced; refusals carry field errors and change nothing. */
  async function reviewChange(deploymentId: string, actor: Actor, change: OrderChange, ip: string, role?: 'admin') {
    const current = await loadOwned(deploymentId, actor, role);
    if (current.subscription.status === 'canceled') throw new AppError('SUBSCRIPTION_CANCELED');
    const nextPlan = await plans.get(change.plan);
    if (!nextPlan) throw AppError.validation({ plan: ['pricing.unknownPlan'] });
    const currentPlan = (await plans.get(current.deployment.planId)) as PlanDto;
    // SPEC §4's rules first: "no lower tier" says more than "option not offered on that plan".
    const refusals: FieldErrors = changeRefusals(
      await orderShape(db, currentPlan, current.deployment.planConfig, current.deployment.paymentCycle),
      await orderShape(db, nextPlan, change.planConfig, change.paymentCycle),
    );
    if (Object.keys(refusals).length) throw new AppError('CHANGE_REFUSED', { fieldErrors: refusals });
    const next = await price(change, current.deployment.companyId, actor, ip, { keepsPlan: current.deployment.planId, countedCodes: await countedCodes(current.subscription.id) });
    checkVendor(change.paymentVendor, next.paymentRequired);
    const sub = current.subscription;
    // Every amount of a change is on the company's current basis: the nets are prorated (as Paddle
    // prorates prices before tax), then the one tax rule taxes what is due.
    const basis = next.priced.taxBasis;
    const prorated = sub.status !== 'pending' && sub.vendor === 'paddle' && sub.currentPeriodStart && sub.currentPeriodEnd
      ? prorate({ currentTotal: netOf(sub.quote), nextTotal: netOf(next.quote), cycleChanges: sub.cycle !== change.paymentCycle, periodStart: sub.currentPeriodStart, periodEnd: sub.currentPeriodEnd, now: new Date() })
      : null;
    // Only a subscription being paid for is prorated; a free or unpaid one is priced afresh.
    const dueNow: Taxed = applyTax(prorated ? prorated.dueNow : sub.status === 'pending' || sub.vendor === 'free' ? netOf(next.quote) : 0, basis);
    return { current, next, prorated, basis, dueNow, credit: applyTax(prorated?.credit ?? 0, basis) };
  }

  async function requireProject(tx: Db, body: CreateDeploymentBody) {
    if (!body.project) throw new AppError('PROJECT_REQUIRED', { fieldErrors: { project: ['errors.PROJECT_REQUIRED'] } });
    const project = UUID.test(body.project) ? await tx.select({ id: projects.id }).from(projects).where(and(eq(projects.id, body.project), eq(projects.companyId, body.company))) : [];
    if (!project.length) throw AppError.validation({ project: ['orders.unknownProject'] });
  }

  /** A new order's checks (project, provider, vendor) and its price, before anything is written. */
  async function checkedOrder(actor: Actor, body: CreateDeploymentBody, ip: string) {
    await requireProject(db, body);
    const priced = await price(body, body.company, actor, ip);
    if (priced.plan.provider.code !== body.provider) throw AppError.validation({ provider: ['pricing.providerMismatch'] });
    checkVendor(body.paymentVendor, priced.paymentRequired);
    return priced;
  }

  /** The server and its subscription at this price, audited; a free one is provisioned at once. */
  async function insertOrder(tx: Db, actor: Actor, body: CreateDeploymentBody, plan: PlanDto, quote: SubscriptionQuote, paymentRequired: boolean, createdBy: string = actor.id) {
    const now = new Date();
    const [deployment] = await tx
      .insert(deployments)
      .values({
        name: body.name,
        providerId: plan.provider._id,
        planId: plan._id,
        planCode: plan.code,
        planConfig: { ...body.planConfig, provider: plan.provider.code as CreateDeploymentBody['provider'] },
        paymentCycle: body.paymentCycle,
        free: plan.kind === 'free',
        companyId: body.company,
        projectId: body.project as string,
        createdBy,
        status: paymentRequired ? NEW_ORDER_STATUS.awaitingPayment : NEW_ORDER_STATUS.settled,
      })
      .returning();
    if (!deployment) throw new Error('deployment insert returned nothing');
    const [sub] = await tx
      .insert(subscriptions)
      .values({
        deploymentId: deployment.id,
        companyId: body.company,
        vendor: paymentRequired ? 'paddle' : 'free',
        status: paymentRequired ? 'pending' : 'active',
        cycle: body.paymentCycle,
        quote,
        // A free subscription is active at once; a paid one gets its period from Paddle.
        ...(paymentRequired ? {} : { currentPeriodStart: now, lastEventAt: now }),
      })
      .returning();
    if (!sub) throw new Error('subscription insert returned nothing');
    await countDiscountUse(tx, sub.id, quote);
    await recordAudit(tx, { actor, action: 'deployment.order', targetType: 'deployment', targetId: deployment.id, companyId: body.company, after: { planCode: plan.code, total: quote.total, cycle: body.paymentCycle, discountCode: quote.discountCode } });
    // A free order is provisioned at once: its task and job are written with it.
    await provisioning.ordered(tx, deployment, actor);
    return { deployment, sub };
  }

  return {
    async create(actor: Actor, body: CreateDeploymentBody, key: string | string[] | undefined, context: OrderContext): Promise<{ status: number; body: DeploymentOrderAnswer; replayed: boolean }> {
      if (key === undefined) throw new AppError('IDEMPOTENCY_KEY_INVALID');
      await members.require(body.company, actor.id, 'admin');
      const { plan, quote, paymentRequired } = await checkedOrder(actor, body, context.ip);

      // A new order counts against its user's hourly limit; a retry of one (same key) does not.
      const admit = () => counters.hit(`orders:user:${actor.id}`, orderLimit);
      const ordered = await idempotency.run({ userId: actor.id, key, request: 'POST /deployments', payload: { body, withSummary: context.withSummary }, required: true, admit }, async (tx) => {
        const { deployment, sub } = await insertOrder(tx, actor, body, plan, quote, paymentRequired);
        return { status: 201, body: await answer(tx, deployment, sub, actor.email, context.withSummary, null) };
      });
      // Committed (or replayed): now the checkout's Paddle transaction, made once, whichever request gets here first.
      return ordered.body.paymentRequired ? { ...ordered, body: withCheckout(ordered.body, await checkouts.open(ordered.body._id)) } : ordered;
    },

    /**
     * An order checked and priced as POST /deployments would take it, for a quote to freeze: the
     * same lines, discount and tax the checkout would charge. The caller has checked the role.
     */
    quoteOrder: (actor: Actor, body: CreateDeploymentBody, ip: string) => checkedOrder(actor, body, ip),

    /** The plan a quote orders, read before the approval's transaction (the catalogue is read outside it). */
    async quotedPlan(planId: string): Promise<PlanDto> {
      const plan = await plans.get(planId);
      if (!plan) throw AppError.validation({ plan: ['pricing.unknownPlan'] });
      return plan;
    },

    /**
     * A quoted order placed in the caller's transaction at the quote's frozen price (`quote`) by the
     * approver, for whoever prepared it (`createdBy`: the dashboard's first admin, as if they had
     * paid it themselves): the project must still exist, the prices are not read again.
     */
    async placeQuoted(tx: Db, actor: Actor, body: CreateDeploymentBody, plan: PlanDto, quote: SubscriptionQuote, createdBy: string): Promise<{ deploymentId: string; paymentRequired: boolean }> {
      await requireProject(tx, body);
      const paymentRequired = decimalToCents(quote.total) > 0;
      checkVendor(body.paymentVendor, paymentRequired);
      const { deployment } = await insertOrder(tx, actor, body, plan, quote, paymentRequired, createdBy);
      return { deploymentId: deployment.id, paymentRequired };
    },

    /** An unpaid order's checkout transaction at Paddle, made after its order committed (see create). */
    openCheckout: (deploymentId: string) => checkouts.open(deploymentId),

    /** generate-preview: what a new order will cost. Open to visitors (no company: before tax). */
    async preview(actor: Actor | null, change: OrderChange & { company?: string }, ip: string): Promise<OrderPreview> {
      const { quote, priced, paymentRequired } = await price(change, change.company ?? null, actor, ip);
      return { cycle: quote.cycle, items: quote.lines, subtotal: quote.subtotal, discount: quote.discount, tax: quote.tax, total: { amount: quote.total, currency: quote.currency }, taxBasis: priced.taxBasis, paymentRequired };
    },

    /** generate-review: what a change will cost now (prorated) and from the next renewal on. */
    async review(actor: Actor, deploymentId: string, change: OrderChange, ip: string): Promise<OrderReview> {
      const { current, next, prorated, basis, dueNow, credit } = await reviewChange(deploymentId, actor, change, ip);
      // Now and after the change on one basis: the stored net of today's bill on the current country.
      const now = taxedAmount(applyTax(netOf(current.subscription.quote), basis));
      const after = taxedAmount(applyTax(netOf(next.quote), basis));
      return {
        taxBasis: basis,
        current: { cycle: current.subscription.cycle, total: now.gross, bill: now },
        next: { cycle: next.quote.cycle, total: after.gross, tax: after.tax, bill: after, items: next.quote.lines },
        amountDueNow: centsToDecimal(dueNow.gross),
        taxDueNow: centsToDecimal(dueNow.tax),
        dueNow: taxedAmount(dueNow),
        credit: centsToDecimal(credit.gross),
        remainingDays: prorated?.remainingDays ?? 0,
        currency: 'USD',
        paymentRequired: dueNow.gross > 0,
      };
    },

    /**
     * PUT /deployments/{id}: applies an allowed change. An active paid subscription is updated at
     * the payment vendor with immediate proration; an unpaid order takes the new price. A running
     * free server made paid keeps its free plan: the change is stored apart (pendingChange) and
     * applied to the server only when its first payment is confirmed (paddle/events.ts).
     */
    async update(actor: Actor, deploymentId: string, change: OrderChange, context: OrderContext): Promise<DeploymentOrderAnswer> {
      const { current, next, prorated, dueNow } = await reviewChange(deploymentId, actor, change, context.ip, 'admin');
      const sub = current.subscription;
      const vendorChange = sub.vendor === 'paddle' && sub.status !== 'pending' && sub.vendorSubscriptionId ? sub.vendorSubscriptionId : null;
      const plan = {
        planId: next.plan._id,
        planCode: next.plan.code,
        planConfig: { ...change.planConfig, provider: current.deployment.planConfig.provider },
        paymentCycle: change.paymentCycle,
        free: next.plan.kind === 'free',
      };
      // A server that runs free (never paid, or waiting to be paid for a change): a paid change waits.
      const runsFree = sub.vendor === 'free' || sub.pendingChange !== null;
      const waits = runsFree && next.paymentRequired;
      const backToFree = sub.pendingChange !== null && !next.paymentRequired;
      // Paddle first, with no transaction open; set back should the change fail here. A retry after
      // a crash in between sends Paddle the same items again, which charges nothing more.
      const followUp = vendorChange ? await gateway.changeSubscription(vendorChange, sub, next.quote, prorated ? dueNow : null) : null;
      const result = await db.transaction(async (tx) => {
        const [deployment] = await tx
          .update(deployments)
          .set({ ...(change.name ? { name: change.name } : {}), ...(waits ? {} : plan), updatedAt: new Date() })
          .where(eq(deployments.id, deploymentId))
          .returning();
        const [updated] = await tx
          .update(subscriptions)
          .set({
            quote: next.quote,
            cycle: change.paymentCycle,
            updatedAt: new Date(),
            ...(waits ? { vendor: 'paddle' as const, status: 'pending' as const, pendingChange: plan } : {}),
            // Dropping back to a free plan before paying: the server stays free, nothing is due.
            ...(backToFree ? { vendor: 'free' as const, status: 'active' as const, pendingChange: null, checkoutTransactionId: null } : {}),
          })
          .where(eq(subscriptions.id, sub.id))
          .returning();
        if (!deployment || !updated) throw new AppError('DEPLOYMENT_NOT_FOUND');
        await countDiscountUse(tx, sub.id, next.quote);
        await recordAudit(tx, { actor, action: 'deployment.change', targetType: 'deployment', targetId: deploymentId, companyId: deployment.companyId, before: { planCode: current.deployment.planCode, total: sub.quote.total }, after: { planCode: next.plan.code, total: next.quote.total, waitsForPayment: waits } });
        // A change waiting for its payment is applied once paid; otherwise the machine is resized now.
        if (!waits && updated.status !== 'pending') await provisioning.changed(tx, deployment, actor);
        // The new price opens a new checkout: notifications of the old one no longer settle anything.
        if (updated.status === 'pending') await tx.update(subscriptions).set({ checkoutTransactionId: null }).where(eq(subscriptions.id, updated.id));
        return { deployment, updated };
      }).catch(async (err: unknown) => {
        if (vendorChange) await gateway.changeSubscription(vendorChange, sub, sub.quote, null).catch((undo: unknown) => log.error({ err: undo, deploymentId }, 'a change refused here stays at Paddle: its subscription could not be set back'));
        throw err;
      });
      // The stand-in's notifications go through the webhook route, which needs the committed rows.
      if (followUp) await followUp();
      const transactionId = result.updated.status === 'pending' ? await checkouts.open(deploymentId) : null;
      const charged = prorated && dueNow.gross > 0 ? { amount: centsToDecimal(dueNow.gross), currency: 'USD' as const } : null;
      return answer(db, result.deployment, { ...result.updated, checkoutTransactionId: transactionId }, actor.email, context.withSummary, transactionId, charged);
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
