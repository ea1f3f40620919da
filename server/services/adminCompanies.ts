import { and, asc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { AdminCompanyDetail, AdminCompanyRow, PaymentProviderLabel, ViewAsAnswer, ViewAsRefusal } from '../../src/domain/admin/schemas';
import type { Db } from '../db/client';
import { companies, companyMembers, deploymentRuntime, deployments, planGroups, plans, projects, subscriptions, users } from '../db/schema';
import { AppError } from '../errors';
import type { PaymentsMode } from '../startMode';
import { countUpTo, listAndExport, plannerEstimate, requirePlatformAdmin, searchOver, type AdminTable, type ListQuery } from './adminQuery';
import { recordAudit } from './audit';
import { UUID } from './plans';
import { setViewAs, type ResolvedSession, type SessionUser } from './sessions';

export const COMPANY_SORT_FIELDS = ['_id', 'name', 'size', 'createdAt', 'members', 'servers'] as const;
export type CompanySortField = (typeof COMPANY_SORT_FIELDS)[number];
export interface CompanyFilter {
  size?: string;
  createdFrom?: string;
  createdTo?: string;
  hasPaidServers?: boolean;
  planGroupId?: string;
}
export type CompanyListQuery = ListQuery<CompanySortField, CompanyFilter>;

export const COMPANY_EXPORT_COLUMNS = [
  { id: '_id', header: 'ID' },
  { id: 'name', header: 'Name' },
  { id: 'size', header: 'Size' },
  { id: 'createdAt', header: 'Created' },
  { id: 'members', header: 'Members' },
  { id: 'servers', header: 'Servers' },
  { id: 'paidServers', header: 'Paid servers' },
  { id: 'planGroupName', header: 'Plan group' },
] as const;

// Counted per row: the list shows them and sorts by them; deleted servers do not count. The outer
// id is spelled out: Drizzle leaves columns unqualified in a one-table select, where `id` would
// mean the subquery's own.
const companyId = sql.raw('"companies"."id"');
const memberCount = sql<number>`(select count(*) from company_members m where m.company_id = ${companyId})::int`;
const serverCount = sql<number>`(select count(*) from deployments d where d.company_id = ${companyId} and d.status <> 'deleted')::int`;
// Paid: a subscription that was paid for (active, past due or paused), on a server not being
// deleted. A server still waiting for its first payment is not one, nor one whose deletion stopped its billing.
const paidServerCount = sql<number>`(select count(*) from deployments d join subscriptions s on s.deployment_id = d.id
  where d.company_id = ${companyId} and d.status <> 'deleted' and not d.free and s.status in ('active', 'past_due', 'paused')
  and not exists (select 1 from deployment_runtime r where r.deployment_id = d.id and r.termination_scheduled_at is not null))::int`;

const companiesTable = (db: Db): AdminTable<CompanySortField, AdminCompanyRow> => ({
  sortColumns: {
    _id: { column: companies.id, type: 'uuid' },
    name: { column: companies.name, type: 'text' },
    size: { column: sql`coalesce(${companies.size}, '')`, type: 'text' },
    createdAt: { column: companies.createdAt, type: 'timestamptz' },
    members: { column: memberCount, type: 'integer' },
    servers: { column: serverCount, type: 'integer' },
  },
  id: companies.id,
  async select({ where, orderBy, cursor, limit, offset }) {
    const rows = await db
      .select({ company: companies, members: memberCount, servers: serverCount, paidServers: paidServerCount, planGroupName: planGroups.name, cursor: sql<string>`${cursor}` })
      .from(companies)
      .leftJoin(planGroups, eq(planGroups.id, companies.planGroupId))
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset);
    return rows.map((r) => ({
      row: {
        _id: r.company.id,
        name: r.company.name,
        size: r.company.size,
        createdAt: r.company.createdAt.toISOString(),
        members: r.members,
        servers: r.servers,
        paidServers: r.paidServers,
        planGroupId: r.company.planGroupId,
        planGroupName: r.planGroupName,
      },
      cursor: r.cursor,
      id: r.company.id,
    }));
  },
  count: (where, cap) => countUpTo(db, companies, where, cap),
  estimate: plannerEstimate(db, 'companies'),
});

function whereOf(query: CompanyListQuery): SQL | undefined {
  const f = query.filter ?? {};
  return and(
    searchOver(query.q, [companies.name, sql`${companies.id}::text`]),
    query.ids ? (query.ids.length ? inArray(companies.id, query.ids) : sql`false`) : undefined,
    f.size ? eq(companies.size, f.size) : undefined,
    f.createdFrom ? gte(companies.createdAt, new Date(f.createdFrom)) : undefined,
    // A bare date includes the whole day.
    f.createdTo ? lte(companies.createdAt, new Date(f.createdTo.length === 10 ? `${f.createdTo}T23:59:59.999Z` : f.createdTo)) : undefined,
    f.hasPaidServers === undefined ? undefined : f.hasPaidServers ? sql`${paidServerCount} > 0` : sql`${paidServerCount} = 0`,
    f.planGroupId === undefined ? undefined : UUID.test(f.planGroupId) ? eq(companies.planGroupId, f.planGroupId) : sql`false`,
  );
}

async function requireCompany(db: Db, companyId: string, lock = false) {
  if (!UUID.test(companyId)) throw new AppError('NOT_FOUND');
  const query = db.select().from(companies).where(eq(companies.id, companyId));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/** The company admin "View as" opens the product as: the longest-standing one. */
async function viewAsTarget(db: Db, companyId: string): Promise<{ id: string; email: string } | null> {
  const [admin] = await db
    .select({ id: users.id, email: users.email })
    .from(companyMembers)
    .innerJoin(users, eq(users.id, companyMembers.userId))
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.role, 'admin')))
    .orderBy(asc(companyMembers.createdAt))
    .limit(1);
  return admin ?? null;
}

/** Why "View as" is refused for this target and platform admin, or null when it is allowed. */
function viewAsRefusal(admin: { id: string } | null, actorId: string): ViewAsRefusal | null {
  if (!admin) return 'NO_COMPANY_ADMIN';
  return admin.id === actorId ? 'CANNOT_ACT_ON_SELF' : null;
}

/**
 * Who takes a subscription's payments as its customer meets them. The local stand-in records its
 * subscriptions under Paddle's name (it plays Paddle's notifications), so this process's payment
 * mode tells them apart: without Paddle's keys no subscription was paid through Paddle.
 */
function paymentProvider(vendor: string, payments: PaymentsMode): PaymentProviderLabel {
  if (vendor === 'free') return 'free';
  return payments === 'paddle' ? 'paddle' : 'stand-in';
}

export type AdminCompanyService = ReturnType<typeof createAdminCompanyService>;

/** The admin area's companies: list, export, a company's page, edit, and the read-only view as its admin. */
export function createAdminCompanyService({ db, payments }: { db: Db; payments: PaymentsMode }) {
  const table = companiesTable(db);
  return {
    ...listAndExport({ db, resource: 'companies' }, table, whereOf),

    /** A company's page: its row, members, projects, servers and subscriptions. */
    async get(actor: SessionUser, input: { companyId: string }): Promise<AdminCompanyDetail> {
      requirePlatformAdmin(actor);
      const company = await requireCompany(db, input.companyId);
      const [[row], people, projectRows, servers, subs, target] = await Promise.all([
        table.select({ where: eq(companies.id, company.id), orderBy: [], cursor: sql`''`, limit: 1, offset: 0 }),
        db
          .select({ _id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, role: companyMembers.role })
          .from(companyMembers)
          .innerJoin(users, eq(users.id, companyMembers.userId))
          .where(eq(companyMembers.companyId, company.id))
          .orderBy(asc(users.email)),
        db.select({ _id: projects.id, name: projects.name }).from(projects).where(eq(projects.companyId, company.id)).orderBy(asc(projects.createdAt)),
        db
          .select({ d: deployments, planName: plans.name, deletingOn: deploymentRuntime.terminationScheduledAt })
          .from(deployments)
          .leftJoin(plans, eq(plans.id, deployments.planId))
          .leftJoin(deploymentRuntime, eq(deploymentRuntime.deploymentId, deployments.id))
          .where(eq(deployments.companyId, company.id))
          .orderBy(asc(deployments.createdAt)),
        db.select().from(subscriptions).where(eq(subscriptions.companyId, company.id)).orderBy(asc(subscriptions.createdAt)),
        viewAsTarget(db, company.id),
      ]);
      if (!row) throw new AppError('NOT_FOUND');
      return {
        ...row.row,
        billingCountry: company.billingCountry,
        people,
        projects: projectRows,
        deployments: servers.map(({ d, planName, deletingOn }) => ({
          _id: d.id,
          name: d.name,
          status: d.status,
          planCode: d.planCode,
          planName: planName ?? d.planCode,
          free: d.free,
          projectId: d.projectId,
          terminationScheduledAt: deletingOn?.toISOString() ?? null,
          createdAt: d.createdAt.toISOString(),
        })),
        subscriptions: subs.map((s) => ({
          _id: s.id,
          deploymentId: s.deploymentId,
          status: s.status,
          cycle: s.cycle,
          vendor: s.vendor,
          paymentProvider: paymentProvider(s.vendor, payments),
          scheduledChange: s.scheduledChange ?? null,
          nextBilledAt: s.nextBilledAt?.toISOString() ?? null,
          total: s.quote.total,
          currency: s.quote.currency,
        })),
        // Whom "View as" opens the product as, or why the server would refuse it: the button says so before a click.
        viewAs: { email: target?.email ?? null, refused: viewAsRefusal(target ?? null, actor.id) },
      };
    },

    /** Renames the company and sets its plan group (null: the public plans); audited with both values. */
    async update(actor: SessionUser, input: { companyId: string; name: string; planGroupId: string | null }): Promise<AdminCompanyDetail> {
      requirePlatformAdmin(actor);
      await db.transaction(async (tx) => {
        const before = await requireCompany(tx, input.companyId, true);
        if (input.planGroupId !== null) {
          const [group] = UUID.test(input.planGroupId) ? await tx.select({ id: planGroups.id }).from(planGroups).where(eq(planGroups.id, input.planGroupId)) : [];
          if (!group) throw AppError.validation({ planGroupId: ['validation.invalid'] });
        }
        if (before.name === input.name && before.planGroupId === input.planGroupId) return;
        await tx.update(companies).set({ name: input.name, planGroupId: input.planGroupId, updatedAt: sql`now()` }).where(eq(companies.id, before.id));
        await recordAudit(tx, {
          actor,
          action: 'company.update',
          targetType: 'company',
          targetId: before.id,
          companyId: before.id,
          before: { name: before.name, planGroupId: before.planGroupId },
          after: { name: input.name, planGroupId: input.planGroupId },
        });
      });
      return this.get(actor, input);
    },

    /**
     * Starts a read-only view of the product as the company's (longest-standing) admin, on the
     * admin's own session: reads answer as that admin would see them, every change is refused
     * (session plugin), and both the start and the end are in the audit log.
     */
    async viewAs(session: ResolvedSession, input: { companyId: string }): Promise<ViewAsAnswer> {
      requirePlatformAdmin(session.user);
      const actor = session.user;
      return db.transaction(async (tx) => {
        const company = await requireCompany(tx, input.companyId);
        const admin = await viewAsTarget(tx, company.id);
        const refused = viewAsRefusal(admin, actor.id);
        if (refused || !admin) throw new AppError(refused ?? 'NO_COMPANY_ADMIN');
        const [project] = await tx.select({ id: projects.id }).from(projects).where(eq(projects.companyId, company.id)).orderBy(asc(projects.createdAt)).limit(1);
        await setViewAs(tx, session.sessionId, { userId: admin.id, companyId: company.id });
        await recordAudit(tx, { actor, action: 'company.viewAs', targetType: 'company', targetId: company.id, companyId: company.id, after: { viewingAs: admin.email } });
        return { companyId: company.id, projectId: project?.id ?? null, userEmail: admin.email };
      });
    },

    /** Ends the read-only view: the session is the admin's own again. */
    async endViewAs(session: ResolvedSession): Promise<void> {
      const view = session.viewAs;
      if (!view) return;
      await db.transaction(async (tx) => {
        await setViewAs(tx, session.sessionId, null);
        await recordAudit(tx, { actor: view.admin, action: 'company.viewAsEnd', targetType: 'company', targetId: view.companyId, companyId: view.companyId, before: { viewingAs: session.user.email } });
      });
    },
  };
}
