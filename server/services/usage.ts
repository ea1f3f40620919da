import { and, eq, ne } from 'drizzle-orm';
import { subscriptionState } from '../../src/domain/billing/rules';
import { DEFAULT_MAU_ALERTS, mauMonthStart, type MauAlertSettings } from '../../src/domain/usage/mauRule';
import { applyTax, netOf, sumTaxed, type Taxed } from '../../src/domain/billing/tax';
import { taxedAmount } from '../../src/domain/billing/schemas';
import type { OrderChange, OrderReview } from '../../src/domain/orders/schemas';
import { mauFromPlanCode } from '../../src/domain/plans/planCode';
import type { CompanyUsage, ServerUsage } from '../../src/domain/usage/schemas';
import type { PlanDto } from '../../src/domain/plans/schemas';
import type { Db } from '../db/client';
import { companies, deploymentRuntime, deployments, mauHistory, subscriptions } from '../db/schema';
import { AppError } from '../errors';
import { recordAudit } from './audit';
import type { Members } from './companies';
import type { Plans } from './plans';
import type { SessionUser } from './sessions';
import { companyTaxBasis } from './taxBasis';

type Actor = Pick<SessionUser, 'id' | 'email'>;
/** The orders service's generate-review: the prorated price of a change, by the same engine. */
type Review = (actor: Actor, deploymentId: string, change: OrderChange, ip: string) => Promise<OrderReview>;

/** The smallest tier above `mau` the company may order, on the same provider. */
function nextTierOf(plans: PlanDto[], current: { mau: number; provider: string }): PlanDto | null {
  return (
    plans
      .filter((p) => p.provider.code === current.provider && (mauFromPlanCode(p.code) ?? 0) > current.mau)
      .sort((a, b) => (mauFromPlanCode(a.code) ?? 0) - (mauFromPlanCode(b.code) ?? 0))[0] ?? null
  );
}

/**
 * Management → Billing: each server's MAU forecast, its next bill, and what the next
 * tier would cost now. Company admins only (it is the billing page); the alert settings are theirs.
 */
export function createUsageService({ db, members, plans, review, sellerTaxId }: { db: Db; members: Members; plans: Plans; review: Review; sellerTaxId: string }) {
  return {
    async companyUsage(actor: Actor, input: { companyId: string; ip: string; now?: Date }): Promise<CompanyUsage> {
      await members.require(input.companyId, actor.id, 'billing');
      const now = input.now ?? new Date();
      const monthStart = mauMonthStart(now);
      const [[company], rows, offered, basis] = await Promise.all([
        db.select({ alerts: companies.mauAlerts }).from(companies).where(eq(companies.id, input.companyId)),
        db
          .select({ d: deployments, s: subscriptions, used: mauHistory.used, forecast: mauHistory.forecast, deletingOn: deploymentRuntime.terminationScheduledAt })
          .from(deployments)
          .innerJoin(subscriptions, eq(subscriptions.deploymentId, deployments.id))
          .leftJoin(deploymentRuntime, eq(deploymentRuntime.deploymentId, deployments.id))
          .leftJoin(mauHistory, and(eq(mauHistory.deploymentId, deployments.id), eq(mauHistory.startsAt, monthStart)))
          .where(and(eq(deployments.companyId, input.companyId), ne(deployments.status, 'deleted'), ne(subscriptions.status, 'canceled')))
          .orderBy(deployments.name),
        plans.forCompany(input.companyId),
        // Every next bill on the company's current country, so that the total adds like with like.
        companyTaxBasis(db, input.companyId, sellerTaxId),
      ]);
      const bills: Taxed[] = [];
      const servers: ServerUsage[] = [];
      for (const { d, s, used, forecast, deletingOn } of rows) {
        // A server whose billing stops (being deleted, its subscription ending) has no next bill to project.
        const facts = { free: d.free, status: s.status, deleted: false, deletingOn: deletingOn?.toISOString() ?? null, nextBilledAt: null, scheduledChange: s.scheduledChange };
        if (subscriptionState(facts).kind === 'line') continue;
        const limit = mauFromPlanCode(d.planCode) ?? 0;
        const count = used ?? 0;
        const overTier = limit > 0 && count > limit;
        const projectedOver = limit > 0 && (forecast?.runOutOn ?? null) !== null;
        const current = offered.find((p) => p._id === d.planId);
        const next = overTier || projectedOver ? nextTierOf(offered, { mau: limit, provider: d.planConfig.provider ?? current?.provider.code ?? '' }) : null;
        let nextTier: ServerUsage['nextTier'] = null;
        if (next) {
          const change: OrderChange = { plan: next._id, paymentCycle: d.paymentCycle, planConfig: d.planConfig, paymentVendor: next.kind === 'free' ? 'free' : 'paddle' };
          // A tier the server's options do not fit is left out rather than failing the page.
          const priced = await review(actor, d.id, change, input.ip).catch((error: unknown) => {
            if (error instanceof AppError) return null;
            throw error;
          });
          if (priced) nextTier = { plan: { _id: next._id, name: next.name, code: next.code, mau: mauFromPlanCode(next.code) ?? 0 }, total: priced.next.bill, dueNow: priced.dueNow };
        }
        const bill = applyTax(netOf(s.quote), basis);
        bills.push(bill);
        servers.push({
          _id: d.id,
          name: d.name,
          project: d.projectId,
          plan: { _id: d.planId, name: current?.name ?? d.planCode, code: d.planCode, mau: limit },
          used: count,
          limit,
          forecast: forecast ?? null,
          cycle: s.cycle,
          nextBill: taxedAmount(bill),
          nextBillAt: s.currentPeriodEnd?.toISOString() ?? null,
          overTier,
          projectedOver,
          nextTier,
        });
      }
      return { servers, total: taxedAmount(sumTaxed(bills, basis)), taxBasis: basis, currency: 'USD', alerts: company?.alerts ?? DEFAULT_MAU_ALERTS };
    },

    /** Which MAU alerts the company's admins get; company admins only, audited. */
    async setAlerts(actor: Actor, input: { companyId: string; alerts: MauAlertSettings }): Promise<MauAlertSettings> {
      await members.require(input.companyId, actor.id, 'billing');
      return db.transaction(async (tx) => {
        const [before] = await tx.select({ alerts: companies.mauAlerts }).from(companies).where(eq(companies.id, input.companyId)).for('update');
        const alerts = { share80: input.alerts.share80, share100: input.alerts.share100, runOut: input.alerts.runOut };
        await tx.update(companies).set({ mauAlerts: alerts }).where(eq(companies.id, input.companyId));
        await recordAudit(tx, { actor, action: 'company.mauAlerts', targetType: 'company', targetId: input.companyId, companyId: input.companyId, before: { ...before?.alerts }, after: { ...alerts } });
        return alerts;
      });
    },
  };
}

export type UsageService = ReturnType<typeof createUsageService>;
