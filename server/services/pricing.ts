import { and, eq } from 'drizzle-orm';
import type { FieldErrors } from '../../src/domain/errors';
import { centsToDecimal } from '../../src/domain/money';
import { priceOrder, toWire, type DiscountInput } from '../../src/domain/pricing';
import type { PricingAnswer, PricingRequest } from '../../src/domain/pricing/schemas';
import { taxBasis } from '../../src/domain/billing/tax';
import { cachedCatalogue } from '../db/catalogueCache';
import type { Db } from '../db/client';
import { discountCodes, sizes } from '../db/schema';
import type { Limit, RateCounters } from './rateCounters';
import { AppError } from '../errors';
import { featureTypes, UUID, type Plans } from './plans';
import type { Members } from './companies';
import type { SessionUser } from './sessions';

// Engine fields → request fields, so that errors point at what the client sent.
const FIELD: Record<string, string> = {
  plan: 'plan',
  region: 'planConfig.region',
  features: 'planConfig.features',
  domain: 'planConfig.features',
  retention: 'planConfig.features',
  backup: 'planConfig.features',
};

/**
 * Prices an order with the same engine the browser uses; refuses unknown or unavailable parts with
 * field errors. Reads only: pricing an order never changes anything.
 */
/** Who is trying discount codes, so wrong guesses are limited per user and per source. */
export interface DiscountAttempts {
  counters: RateCounters;
  /** e.g. `ip:<address>` and, when signed in, `user:<id>`. */
  keys: string[];
  limit: Limit;
}

/** countedCodes: codes already counted for the subscription being changed, never "used up" for it. */
export async function priceDeployment(db: Db, plans: Plans, request: PricingRequest, options: { now: Date; country?: string | null; taxId?: string | null; sellerTaxId?: string | null; attempts?: DiscountAttempts; countedCodes?: ReadonlySet<string> }): Promise<PricingAnswer> {
  const errors: FieldErrors = {};
  const refuse = (field: string, key: string) => {
    const list = (errors[field] ??= []);
    if (!list.includes(key)) list.push(key);
  };

  const plan = await plans.get(request.plan);
  if (!plan) throw AppError.validation({ plan: ['pricing.unknownPlan'] });
  const { planConfig } = request;
  if (planConfig.provider && planConfig.provider !== plan.provider.code) refuse('planConfig.provider', 'pricing.providerMismatch');
  if (planConfig.size) {
    const size = UUID.test(planConfig.size)
      ? await db.select({ id: sizes.id }).from(sizes).where(and(eq(sizes.id, planConfig.size), eq(sizes.providerId, plan.provider._id)))
      : [];
    if (!size.length) refuse('planConfig.size', 'pricing.unknownSize');
  }

  // Sort the chosen options by type: one domain, one retention and one backup; the rest are features.
  const ids = [...new Set(planConfig.features)];
  const typeOf = await featureTypes(db);
  const order = { region: planConfig.region, features: [] as string[], domain: null as string | null, retention: null as string | null, backup: null as string | null, cycle: request.payment.term.cycle };
  for (const refId of ids) {
    const type = typeOf.get(refId);
    if (!type) refuse('planConfig.features', 'pricing.unknownFeature');
    else if (type === 'domain' || type === 'retention' || type === 'backup') {
      if (order[type]) refuse('planConfig.features', 'pricing.oneOfType');
      order[type] = refId;
    } else order.features.push(refId);
  }

  let discount: DiscountInput | null = null;
  if (request.discountCode) {
    // Only wrong codes count, so a customer changing options with a good code is never limited;
    // past the limit no code is checked at all, so guessing learns nothing more.
    const attempts = options.attempts;
    if (attempts) for (const key of attempts.keys) await attempts.counters.check(`discount:${key}`, attempts.limit);
    const [row] = await db.select().from(discountCodes).where(eq(discountCodes.code, request.discountCode.toUpperCase()));
    if (!row && attempts) for (const key of attempts.keys) await attempts.counters.hit(`discount:${key}`, attempts.limit);
    if (!row) refuse('discountCode', 'pricing.unknownDiscount');
    else discount = { code: row.code, kind: row.kind, value: row.value, expiresAt: row.expiresAt?.toISOString(), maxUses: options.countedCodes?.has(row.code) ? undefined : (row.maxUses ?? undefined), uses: row.uses };
  }

  const result = priceOrder(plan, order, { discount, now: options.now, country: options.country ?? null, taxId: options.taxId ?? null, sellerTaxId: options.sellerTaxId ?? null });
  if (!result.ok) for (const [field, keys] of Object.entries(result.errors)) for (const key of keys) refuse(FIELD[field] ?? field, key);
  if (Object.keys(errors).length || !result.ok) throw AppError.validation(errors);

  const { quote } = result;
  if (quote.discountResult && !quote.discountResult.applied && quote.discountResult.reason) refuse('discountCode', quote.discountResult.reason);
  if (Object.keys(errors).length) throw AppError.validation(errors);
  const wire = toWire(quote);
  return {
    ...wire,
    // The same parties the engine taxed on: what the tax is, for every screen that shows it.
    taxBasis: taxBasis({ country: options.country ?? null, taxId: options.taxId ?? null, sellerTaxId: options.sellerTaxId ?? null }),
    cycle: quote.cycle,
    monthly: centsToDecimal(quote.monthly),
    isDiscountApplied: Boolean(quote.discountResult?.applied),
    discountCode: quote.discountResult?.code ?? null,
    lines: quote.lines.map((l) => ({ kind: l.kind, refId: l.refId, amount: centsToDecimal(l.amount) })),
  };
}

export type PricingService = ReturnType<typeof createPricingService>;

const MAX_CACHED_ANSWERS = 1000;

/**
 * Pricing an order (POST /deployments/pricing): open to visitors, before tax; naming a company
 * (a member's order) adds the tax of its billing country. Discount-code guesses are limited per
 * source and per user.
 */
export function createPricingService(deps: { db: Db; members: Members; plans: Plans; counters: RateCounters; discountChecksPerHour: number; sellerTaxId: string }) {
  const { db, plans, counters } = deps;
  return {
    async price(actor: SessionUser | null, input: { order: PricingRequest; ip: string }): Promise<PricingAnswer> {
      // Without a company (no tax) and without a discount code (no clock, no guess counting), the
      // answer depends on the order and the catalogue alone: the calculator and the wizard ask for
      // the same few orders again and again, so answers are kept until the catalogue changes.
      if (!input.order.company && !input.order.discountCode) {
        const answers = await cachedCatalogue(db, 'pricingAnswers', async () => new Map<string, Promise<PricingAnswer>>());
        const key = JSON.stringify(input.order);
        const hit = answers.get(key);
        if (hit) return hit;
        const answer = priceDeployment(db, plans, input.order, { now: new Date() });
        // Bounded: distinct orders are many, the ones asked for often are few.
        if (answers.size >= MAX_CACHED_ANSWERS) answers.clear();
        answers.set(key, answer);
        // A refused order is not kept: it is answered (and counted) afresh each time.
        answer.catch(() => {
          if (answers.get(key) === answer) answers.delete(key);
        });
        return answer;
      }
      const buyer = input.order.company && actor ? await deps.members.buyerTax(input.order.company, actor.id) : null;
      const attempts: DiscountAttempts = {
        counters,
        keys: [`ip:${input.ip}`, ...(actor ? [`user:${actor.id}`] : [])],
        limit: { max: deps.discountChecksPerHour, windowMinutes: 60 },
      };
      return priceDeployment(db, plans, input.order, { now: new Date(), country: buyer?.country ?? null, taxId: buyer?.taxId ?? null, sellerTaxId: deps.sellerTaxId, attempts });
    },
  };
}
