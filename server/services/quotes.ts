import { and, desc, eq, inArray, ne } from 'drizzle-orm';
import { ACCESS_LEVELS } from '../../src/domain/companies/access';
import { QUOTE_TTL_DAYS, quotePagePath, quoteState, type ApproveQuoteAnswer, type QuoteDocument, type QuoteDto, type QuoteOrder } from '../../src/domain/billing/quotes';
import { centsToDecimal, decimalToCents, formatMoney } from '../../src/domain/money';
import type { CreateDeploymentBody, SubscriptionQuote } from '../../src/domain/orders/schemas';
import type { PlanDto } from '../../src/domain/plans/schemas';
import type { TaxBasis } from '../../src/domain/billing/tax';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { companyMembers, deployments, quotes, subscriptions, users } from '../db/schema';
import { AppError } from '../errors';
import type { Mailer } from '../mail/mailer';
import { renderMail, type MailKind } from '../mail/templates';
import { recordAudit } from './audit';
import type { Members } from './companies';
import { renderQuoteHtml } from './invoiceHtml';
import { buyerNow, nextDocumentNumber, sellerParty } from './invoices';
import { UUID } from './plans';
import type { SessionUser } from './sessions';
import type { TFunction } from 'i18next';

type Actor = Pick<SessionUser, 'id' | 'email'>;
type QuoteRow = typeof quotes.$inferSelect;
/** What quotes need of the order service (services/orders.ts): the same checks, price and order. */
interface Orders {
  quoteOrder(actor: Actor, body: CreateDeploymentBody, ip: string): Promise<{ plan: PlanDto; priced: { taxBasis: TaxBasis }; quote: SubscriptionQuote; paymentRequired: boolean }>;
  quotedPlan(planId: string): Promise<PlanDto>;
  placeQuoted(tx: Db, actor: Actor, body: CreateDeploymentBody, plan: PlanDto, quote: SubscriptionQuote, createdBy: string): Promise<{ deploymentId: string; paymentRequired: boolean }>;
  openCheckout(deploymentId: string): Promise<unknown>;
}

/**
 * Quotes: someone who may order freezes a priced order for the company's billing people, who
 * approve it (the server is ordered at the frozen price and paid through the usual checkout) or
 * decline it. One quote orders at most one server: the approval takes the quote row's lock and
 * stores the server on it (unique), so two approvals at once make one order.
 */
export function createQuoteService({ db, members, orders, config, mailer, t }: { db: Db; members: Members; orders: Orders; config: Config; mailer: Mailer; t: TFunction }) {
  const quoteLink = (id: string) => `${config.publicUrl}/#${quotePagePath(id)}`;

  async function load(tx: Db, quoteId: string, lock = false): Promise<QuoteRow> {
    if (!UUID.test(quoteId)) throw new AppError('QUOTE_NOT_FOUND');
    const query = tx.select().from(quotes).where(eq(quotes.id, quoteId));
    const [row] = lock ? await query.for('update') : await query;
    if (!row) throw new AppError('QUOTE_NOT_FOUND');
    return row;
  }

  /** The quote for one of its company's billing people; anyone else is told it does not exist. */
  async function visible(actor: Actor, quoteId: string): Promise<QuoteRow> {
    const row = await load(db, quoteId);
    await members.require(row.companyId, actor.id, 'billing').catch(() => {
      throw new AppError('QUOTE_NOT_FOUND');
    });
    return row;
  }

  async function paidDeployments(ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await db.select({ id: subscriptions.deploymentId }).from(subscriptions).where(and(inArray(subscriptions.deploymentId, ids), ne(subscriptions.status, 'pending')));
    return new Set(rows.map((r) => r.id));
  }

  function dto(row: QuoteRow, paid: boolean): QuoteDto {
    return {
      _id: row.id,
      number: row.number,
      companyId: row.companyId,
      state: quoteState(row.status, row.expiresAt),
      document: row.document,
      order: row.order,
      quote: row.quote,
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      decidedAt: row.decidedAt?.toISOString() ?? null,
      decidedBy: row.decidedBy,
      declineReason: row.declineReason,
      deploymentId: row.deploymentId,
      paid,
    };
  }

  /** Mails the preparer what became of their quote (a preparer whose account is gone gets nothing). */
  async function tellPreparer(row: QuoteRow, kind: MailKind, more: Record<string, string>): Promise<void> {
    if (!row.preparedBy) return;
    const [user] = await db.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, row.preparedBy));
    if (!user) return;
    const link = quoteLink(row.id);
    await mailer.send(user.email, renderMail(t, kind, { name: user.firstName, link, expiry: { number: row.number, ...more }, server: row.document.server.name }), link);
  }

  return {
    /** POST /companies/{id}/quotes: the order priced as the checkout would charge it, frozen for 30 days. */
    async send(actor: Actor, input: { companyId: string; order: QuoteOrder; ip: string }): Promise<QuoteDto> {
      await members.require(input.companyId, actor.id, 'admin');
      const body = { ...input.order, company: input.companyId };
      const { plan, priced, quote, paymentRequired } = await orders.quoteOrder(actor, body, input.ip);
      if (!paymentRequired) throw AppError.validation({ plan: ['orders.freeNeedsNoApproval'] });
      const row = await db.transaction(async (tx) => {
        const [preparer] = await tx.select({ firstName: users.firstName, lastName: users.lastName, email: users.email }).from(users).where(eq(users.id, actor.id));
        const number = await nextDocumentNumber(tx, 'quote');
        const issuedAt = new Date();
        const expiresAt = new Date(issuedAt.getTime() + QUOTE_TTL_DAYS * 86_400_000);
        const document = quoteDocument({
          number,
          issuedAt,
          expiresAt,
          seller: sellerParty(config),
          buyer: await buyerNow(tx, input.companyId, null),
          preparedBy: { name: `${preparer?.firstName ?? ''} ${preparer?.lastName ?? ''}`.trim(), email: preparer?.email ?? actor.email },
          server: { name: body.name, plan: plan.name },
          quote,
          tax: priced.taxBasis,
        });
        const [inserted] = await tx
          .insert(quotes)
          .values({ number, companyId: input.companyId, preparedBy: actor.id, order: input.order, quote, document, expiresAt })
          .returning();
        if (!inserted) throw new Error('quote insert returned nothing');
        await recordAudit(tx, { actor, action: 'quote.send', targetType: 'quote', targetId: inserted.id, companyId: input.companyId, after: { number, total: quote.total, cycle: quote.cycle, server: body.name } });
        return inserted;
      });
      // The company's billing people (the billing role, and admins other than the preparer) get the link.
      const approvers = await db
        .select({ email: users.email, firstName: users.firstName })
        .from(companyMembers)
        .innerJoin(users, eq(users.id, companyMembers.userId))
        .where(and(eq(companyMembers.companyId, input.companyId), inArray(companyMembers.role, [...ACCESS_LEVELS.billing]), ne(companyMembers.userId, actor.id)));
      const link = quoteLink(row.id);
      for (const a of approvers) {
        await mailer.send(a.email, renderMail(t, 'quoteSent', { name: a.firstName, link, inviter: row.document.preparedBy.name || row.document.preparedBy.email, server: row.document.server.name, expiry: { number: row.number, total: formatMoney(row.document.total, { cents: 'always' }), days: QUOTE_TTL_DAYS } }), link);
      }
      return dto(row, false);
    },

    /** GET /companies/{id}/quotes: the company's quotes, newest first, with their state. */
    async list(actor: Actor, companyId: string): Promise<QuoteDto[]> {
      await members.require(companyId, actor.id, 'billing');
      const rows = await db.select().from(quotes).where(eq(quotes.companyId, companyId)).orderBy(desc(quotes.createdAt)).limit(200);
      const paid = await paidDeployments(rows.flatMap((r) => (r.deploymentId ? [r.deploymentId] : [])));
      return rows.map((r) => dto(r, r.deploymentId !== null && paid.has(r.deploymentId)));
    },

    async get(actor: Actor, quoteId: string): Promise<QuoteDto> {
      const row = await visible(actor, quoteId);
      const paid = row.deploymentId ? await paidDeployments([row.deploymentId]) : new Set<string>();
      return dto(row, paid.size > 0);
    },

    /** GET /quotes/{id}/document: the quote as a printable page, like the invoice. */
    async document(actor: Actor, quoteId: string): Promise<{ html: string }> {
      const row = await visible(actor, quoteId);
      return { html: renderQuoteHtml(row.document, quoteState(row.status, row.expiresAt), t) };
    },

    /**
     * POST /quotes/{id}/approve: orders the server at the frozen price, then opens its checkout.
     * Approving an approved quote whose server is unpaid answers that server again (a second tab,
     * a second approver): one quote, one server, one charge.
     */
    async approve(actor: Actor, quoteId: string): Promise<ApproveQuoteAnswer> {
      const plan = await orders.quotedPlan((await visible(actor, quoteId)).order.plan);
      const decided = await db.transaction(async (tx) => {
        const row = await load(tx, quoteId, true);
        if (row.status === 'declined') throw new AppError('QUOTE_DECLINED');
        if (row.status === 'approved' && row.deploymentId) {
          const [sub] = await tx.select({ status: subscriptions.status }).from(subscriptions).where(eq(subscriptions.deploymentId, row.deploymentId));
          const [server] = await tx.select({ status: deployments.status }).from(deployments).where(eq(deployments.id, row.deploymentId));
          if (sub?.status !== 'pending' || !server || server.status === 'deleted') throw new AppError('QUOTE_USED');
          return { row, deploymentId: row.deploymentId, fresh: false };
        }
        if (row.status !== 'open' || quoteState(row.status, row.expiresAt) === 'expired') throw new AppError(row.status === 'open' ? 'QUOTE_EXPIRED' : 'QUOTE_USED');
        // The server is the preparer's (its dashboard's first admin) while they are in the company; else the approver's.
        const [preparer] = row.preparedBy ? await tx.select({ userId: companyMembers.userId }).from(companyMembers).where(and(eq(companyMembers.companyId, row.companyId), eq(companyMembers.userId, row.preparedBy), inArray(companyMembers.role, [...ACCESS_LEVELS.servers]))) : [];
        const placed = await orders.placeQuoted(tx, actor, { ...row.order, company: row.companyId }, plan, row.quote, preparer?.userId ?? actor.id);
        await tx.update(quotes).set({ status: 'approved', decidedBy: actor.id, decidedAt: new Date(), deploymentId: placed.deploymentId }).where(eq(quotes.id, row.id));
        await recordAudit(tx, { actor, action: 'quote.approve', targetType: 'quote', targetId: row.id, companyId: row.companyId, before: { status: 'open' }, after: { status: 'approved', deploymentId: placed.deploymentId, total: row.quote.total } });
        return { row, deploymentId: placed.deploymentId, fresh: true };
      });
      // Committed: Paddle's checkout transaction is made with no transaction open.
      await orders.openCheckout(decided.deploymentId);
      if (decided.fresh) await tellPreparer(decided.row, 'quoteApproved', { approver: actor.email });
      return { deploymentId: decided.deploymentId, paymentRequired: true };
    },

    /** POST /quotes/{id}/decline: closes an open quote with the approver's reason, mailed to the preparer. */
    async decline(actor: Actor, quoteId: string, reason: string): Promise<QuoteDto> {
      await visible(actor, quoteId);
      const row = await db.transaction(async (tx) => {
        const current = await load(tx, quoteId, true);
        if (current.status === 'declined') throw new AppError('QUOTE_DECLINED');
        if (current.status === 'approved') throw new AppError('QUOTE_USED');
        if (quoteState(current.status, current.expiresAt) === 'expired') throw new AppError('QUOTE_EXPIRED');
        const [updated] = await tx.update(quotes).set({ status: 'declined', decidedBy: actor.id, decidedAt: new Date(), declineReason: reason }).where(eq(quotes.id, quoteId)).returning();
        await recordAudit(tx, { actor, action: 'quote.decline', targetType: 'quote', targetId: quoteId, companyId: current.companyId, before: { status: 'open' }, after: { status: 'declined', reason } });
        return updated as QuoteRow;
      });
      await tellPreparer(row, 'quoteDeclined', { approver: actor.email, reason });
      return dto(row, false);
    },

  };
}
export type QuoteService = ReturnType<typeof createQuoteService>;

/**
 * What the worker tells about quotes: a quoted server that now runs is announced to whoever
 * prepared its quote (they configured it; the approver paid it).
 */
export function createQuoteNotices({ db, mailing }: { db: Db; mailing: { mailer: Mailer; t: TFunction; publicUrl: string } }) {
  return {
    async serverRunning(deploymentId: string): Promise<void> {
      const [row] = await db
        .select({ id: quotes.id, number: quotes.number, server: deployments.name, email: users.email, firstName: users.firstName })
        .from(quotes)
        .innerJoin(users, eq(users.id, quotes.preparedBy))
        .innerJoin(deployments, eq(deployments.id, quotes.deploymentId))
        .where(eq(quotes.deploymentId, deploymentId));
      if (!row) return;
      const link = `${mailing.publicUrl}/#${quotePagePath(row.id)}`;
      await mailing.mailer.send(row.email, renderMail(mailing.t, 'quoteServerRunning', { name: row.firstName, link, expiry: { number: row.number }, server: row.server }), link);
    },
  };
}
export type QuoteNotices = ReturnType<typeof createQuoteNotices>;

/** A quoted server's first payment went through (in the transaction that records it): the quote's payment is audited. */
export async function recordQuotePayment(tx: Db, deploymentId: string): Promise<void> {
  const [row] = await tx.select({ id: quotes.id, companyId: quotes.companyId, total: quotes.quote }).from(quotes).where(eq(quotes.deploymentId, deploymentId));
  if (row) await recordAudit(tx, { actor: null, action: 'quote.pay', targetType: 'quote', targetId: row.id, companyId: row.companyId, after: { deploymentId, total: row.total.total } });
}

/** The document a quote freezes: the parties now, the priced lines and the tax of the company's billing country. */
export function quoteDocument(input: {
  number: string;
  issuedAt: Date;
  expiresAt: Date;
  seller: QuoteDocument['seller'];
  buyer: QuoteDocument['buyer'];
  preparedBy: QuoteDocument['preparedBy'];
  server: QuoteDocument['server'];
  quote: SubscriptionQuote;
  tax: { country: string | null; rate: number; kind: string };
}): QuoteDocument {
  const { quote } = input;
  const saving = quote.cycle === 'year' ? decimalToCents(quote.monthly) * 12 - decimalToCents(quote.subtotal) : 0;
  return {
    number: input.number,
    issuedAt: input.issuedAt.toISOString(),
    expiresAt: input.expiresAt.toISOString(),
    seller: input.seller,
    buyer: input.buyer,
    preparedBy: input.preparedBy,
    server: input.server,
    cycle: quote.cycle,
    lines: quote.lines.map((l) => ({ name: l.name, amount: l.amount })),
    subtotal: quote.subtotal,
    discount: quote.discount,
    discountCode: quote.discountCode,
    taxRate: input.tax.kind === 'standard' ? input.tax.rate : 0,
    taxCountry: input.tax.country,
    reverseCharge: input.tax.kind === 'reverseCharge',
    tax: quote.tax,
    total: quote.total,
    yearlySaving: saving > 0 ? centsToDecimal(saving) : null,
    currency: quote.currency,
  };
}
