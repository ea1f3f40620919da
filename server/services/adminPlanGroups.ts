import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PlanGroupDetail, PlanGroupEditor, PlanGroupRow, PlanGroupUpdate } from '../../src/domain/admin/schemas';
import { centsToDecimal } from '../../src/domain/money';
import type { Db } from '../db/client';
import { companies, planGroupPlans, planGroups, plans } from '../db/schema';
import { AppError } from '../errors';
import { listAndExport, requirePlatformAdmin, searchOver, type AdminTable, type ListQuery } from './adminQuery';
import { recordAudit } from './audit';
import { UUID } from './plans';
import type { SessionUser } from './sessions';

export const PLAN_GROUP_SORT_FIELDS = ['_id', 'name', 'createdAt'] as const;
export type PlanGroupSortField = (typeof PLAN_GROUP_SORT_FIELDS)[number];
export type PlanGroupListQuery = ListQuery<PlanGroupSortField, Record<string, never>>;

export const PLAN_GROUP_EXPORT_COLUMNS = [
  { id: '_id', header: 'ID' },
  { id: 'name', header: 'Name' },
  { id: 'description', header: 'Description' },
  { id: 'plans', header: 'Plans' },
  { id: 'companies', header: 'Companies' },
  { id: 'createdAt', header: 'Created' },
] as const;

// The outer id spelled out: Drizzle leaves columns unqualified in a one-table select.
const groupId = sql.raw('"plan_groups"."id"');
const planCount = sql<number>`(select count(*) from plan_group_plans p where p.plan_group_id = ${groupId})::int`;
const companyCount = sql<number>`(select count(*) from companies c where c.plan_group_id = ${groupId})::int`;

const groupsTable = (db: Db): AdminTable<PlanGroupSortField, PlanGroupRow> => ({
  sortColumns: {
    _id: { column: planGroups.id, type: 'uuid' },
    name: { column: planGroups.name, type: 'text' },
    createdAt: { column: planGroups.createdAt, type: 'timestamptz' },
  },
  id: planGroups.id,
  async select({ where, orderBy, cursor, limit, offset }) {
    const rows = await db
      .select({ group: planGroups, plans: planCount, companies: companyCount, cursor: sql<string>`${cursor}` })
      .from(planGroups)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset);
    return rows.map((r) => ({
      row: { _id: r.group.id, name: r.group.name, description: r.group.description, plans: r.plans, companies: r.companies, createdAt: r.group.createdAt.toISOString() },
      cursor: r.cursor,
      id: r.group.id,
    }));
  },
  count: async (where) => (await db.select({ n: count() }).from(planGroups).where(where))[0]?.n ?? 0,
});

function whereOf(query: PlanGroupListQuery): SQL | undefined {
  return and(searchOver(query.q, [planGroups.name, planGroups.description]), query.ids ? (query.ids.length ? inArray(planGroups.id, query.ids) : sql`false`) : undefined);
}

const isUniqueViolation = (error: unknown) => (error as { code?: string; cause?: { code?: string } }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505';

/** Every id must name a row: an unknown or malformed one is a field error, and nothing changes. */
async function requireAll(tx: Db, ids: string[], table: typeof plans | typeof companies, field: string): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.some((id) => !UUID.test(id))) throw AppError.validation({ [field]: ['validation.invalid'] });
  if (!unique.length) return;
  const [found] = await tx.select({ n: count() }).from(table).where(inArray(table.id, unique));
  if ((found?.n ?? 0) !== unique.length) throw AppError.validation({ [field]: ['validation.invalid'] });
}

export type AdminPlanGroupService = ReturnType<typeof createAdminPlanGroupService>;

/** Plan groups: a company's own plan list. Create, choose plans, assign companies, delete; all audited. */
export function createAdminPlanGroupService({ db }: { db: Db }) {
  const table = groupsTable(db);

  async function detail(conn: Db, id: string): Promise<PlanGroupDetail> {
    if (!UUID.test(id)) throw new AppError('NOT_FOUND');
    const [[row], planRows, companyRows] = await Promise.all([
      groupsTable(conn).select({ where: eq(planGroups.id, id), orderBy: [], cursor: sql`''`, limit: 1, offset: 0 }),
      conn.select({ id: planGroupPlans.planId }).from(planGroupPlans).where(eq(planGroupPlans.planGroupId, id)),
      conn.select({ id: companies.id }).from(companies).where(eq(companies.planGroupId, id)).orderBy(asc(companies.name)),
    ]);
    if (!row) throw new AppError('NOT_FOUND');
    return { ...row.row, planIds: planRows.map((p) => p.id).sort(), companyIds: companyRows.map((c) => c.id) };
  }

  return {
    ...listAndExport({ db, resource: 'plan-groups' }, table, whereOf),
    async get(actor: SessionUser, input: { id: string }) {
      requirePlatformAdmin(actor);
      return detail(db, input.id);
    },

    /** The editor: every plan of the catalogue (any status) with the group's selection and price. */
    async editor(actor: SessionUser, input: { id: string }): Promise<PlanGroupEditor> {
      requirePlatformAdmin(actor);
      const group = await detail(db, input.id);
      const [all, assigned] = await Promise.all([
        db.select().from(plans).orderBy(asc(plans.priority), asc(plans.code)),
        group.companyIds.length ? db.select({ _id: companies.id, name: companies.name }).from(companies).where(inArray(companies.id, group.companyIds)).orderBy(asc(companies.name)) : [],
      ]);
      const selected = new Set(group.planIds);
      return {
        group,
        plans: all.map((p) => ({ _id: p.id, name: p.name, code: p.code, status: p.status, monthlyPrice: centsToDecimal(p.basePriceCents), selected: selected.has(p.id) })),
        companies: assigned,
      };
    },

    async create(actor: SessionUser, input: { name: string; description: string }): Promise<PlanGroupDetail> {
      requirePlatformAdmin(actor);
      try {
        const id = await db.transaction(async (tx) => {
          const [row] = await tx.insert(planGroups).values({ name: input.name, description: input.description }).returning({ id: planGroups.id });
          if (!row) throw new AppError('CONFLICT');
          await recordAudit(tx, { actor, action: 'planGroup.create', targetType: 'planGroup', targetId: row.id, after: { name: input.name, description: input.description } });
          return row.id;
        });
        return detail(db, id);
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('PLAN_GROUP_NAME_TAKEN', { fieldErrors: { name: ['errors.PLAN_GROUP_NAME_TAKEN'] } });
        throw error;
      }
    },

    /**
     * Renames the group and, when given, replaces its plans and its companies (companies taken
     * from another group move here; companies left out go back to the public plans).
     */
    async update(actor: SessionUser, input: { id: string } & PlanGroupUpdate): Promise<PlanGroupDetail> {
      requirePlatformAdmin(actor);
      try {
        await db.transaction(async (tx) => {
          if (!UUID.test(input.id)) throw new AppError('NOT_FOUND');
          const [locked] = await tx.select().from(planGroups).where(eq(planGroups.id, input.id)).for('update');
          if (!locked) throw new AppError('NOT_FOUND');
          const before = await detail(tx, input.id);
          if (input.planIds) await requireAll(tx, input.planIds, plans, 'planIds');
          if (input.companyIds) await requireAll(tx, input.companyIds, companies, 'companyIds');
          const planIds = input.planIds ? [...new Set(input.planIds)].sort() : before.planIds;
          const companyIds = input.companyIds ? [...new Set(input.companyIds)] : before.companyIds;
          await tx.update(planGroups).set({ name: input.name, description: input.description, updatedAt: sql`now()` }).where(eq(planGroups.id, input.id));
          if (input.planIds) {
            await tx.delete(planGroupPlans).where(eq(planGroupPlans.planGroupId, input.id));
            if (planIds.length) await tx.insert(planGroupPlans).values(planIds.map((planId) => ({ planGroupId: input.id, planId })));
          }
          if (input.companyIds) {
            await tx.update(companies).set({ planGroupId: null }).where(eq(companies.planGroupId, input.id));
            if (companyIds.length) await tx.update(companies).set({ planGroupId: input.id }).where(inArray(companies.id, companyIds));
          }
          const was = { name: before.name, description: before.description, planIds: before.planIds, companyIds: [...before.companyIds].sort() };
          const now = { name: input.name, description: input.description, planIds, companyIds: [...companyIds].sort() };
          if (JSON.stringify(was) !== JSON.stringify(now)) await recordAudit(tx, { actor, action: 'planGroup.update', targetType: 'planGroup', targetId: input.id, before: was, after: now });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('PLAN_GROUP_NAME_TAKEN', { fieldErrors: { name: ['errors.PLAN_GROUP_NAME_TAKEN'] } });
        throw error;
      }
      return detail(db, input.id);
    },

    /** Deletes the group; its companies go back to the public plans (ON DELETE SET NULL). */
    async delete(actor: SessionUser, input: { id: string }): Promise<PlanGroupDetail> {
      requirePlatformAdmin(actor);
      return db.transaction(async (tx) => {
        const before = await detail(tx, input.id);
        await tx.delete(planGroups).where(eq(planGroups.id, input.id));
        await recordAudit(tx, { actor, action: 'planGroup.delete', targetType: 'planGroup', targetId: input.id, before: { name: before.name, planIds: before.planIds, companyIds: before.companyIds } });
        return before;
      });
    },
  };
}
