import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { MAX_PROJECTS_PER_COMPANY, type ProjectDto } from '../../src/domain/projects/schemas';
import type { Db } from '../db/client';
import { companies, projects } from '../db/schema';
import { AppError } from '../errors';
import { recordAudit } from './audit';
import type { Members } from './companies';
import { UUID } from './plans';
import type { SessionUser } from './sessions';

type ProjectRow = typeof projects.$inferSelect;

// Written out in full: inside a subquery Drizzle would leave the outer column unqualified.
const serverCount = sql<number>`(select count(*) from deployments d where d.project_id = "projects"."id" and d.status <> 'deleted')::int`;

const toDto = (row: ProjectRow, servers: number): ProjectDto => ({ _id: row.id, name: row.name, createdAt: row.createdAt.toISOString(), servers });

const actorOf = (user: SessionUser) => ({ id: user.id, email: user.email });

/** Locks the company row, so that concurrent creations count and name-check one after another. */
async function lockCompany(tx: Db, companyId: string) {
  await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update');
}

/** The project, locked for the change; an id of another company is answered as unknown. */
async function lockProject(tx: Db, companyId: string, projectId: string): Promise<ProjectRow> {
  if (!UUID.test(projectId)) throw new AppError('PROJECT_NOT_FOUND');
  const [row] = await tx
    .select()
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.companyId, companyId)))
    .for('update');
  if (!row) throw new AppError('PROJECT_NOT_FOUND');
  return row;
}

async function requireFreeName(tx: Db, companyId: string, name: string, exceptId?: string) {
  const [clash] = await tx
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.companyId, companyId), sql`lower(${projects.name}) = lower(${name})`, ...(exceptId ? [ne(projects.id, exceptId)] : [])))
    .limit(1);
  if (clash) throw new AppError('PROJECT_NAME_TAKEN', { fieldErrors: { name: ['errors.PROJECT_NAME_TAKEN'] } });
}

export type ProjectService = ReturnType<typeof createProjectService>;

/**
 * Management › Project: a company's projects. Members read; workspace admins create, rename and
 * delete. A project with servers stays: deleting it would take its servers with it.
 */
export function createProjectService({ db, members }: { db: Db; members: Members }) {
  return {
    async list(actor: SessionUser, input: { companyId: string }): Promise<ProjectDto[]> {
      await members.require(input.companyId, actor.id);
      const rows = await db.select({ project: projects, servers: serverCount }).from(projects).where(eq(projects.companyId, input.companyId)).orderBy(asc(projects.createdAt), asc(projects.id));
      return rows.map((r) => toDto(r.project, r.servers));
    },

    async create(actor: SessionUser, input: { companyId: string; name: string }): Promise<ProjectDto> {
      await members.require(input.companyId, actor.id, 'admin');
      return db.transaction(async (tx) => {
        await lockCompany(tx, input.companyId);
        const [{ n } = { n: 0 }] = await tx.select({ n: sql<number>`count(*)::int` }).from(projects).where(eq(projects.companyId, input.companyId));
        if (n >= MAX_PROJECTS_PER_COMPANY) throw new AppError('PROJECT_LIMIT', { params: { max: String(MAX_PROJECTS_PER_COMPANY) } });
        await requireFreeName(tx, input.companyId, input.name);
        const [row] = await tx.insert(projects).values({ companyId: input.companyId, name: input.name }).returning();
        if (!row) throw new AppError('INTERNAL');
        await recordAudit(tx, { actor: actorOf(actor), action: 'project.create', targetType: 'project', targetId: row.id, companyId: input.companyId, after: { name: row.name } });
        return toDto(row, 0);
      });
    },

    async rename(actor: SessionUser, input: { companyId: string; projectId: string; name: string }): Promise<ProjectDto> {
      await members.require(input.companyId, actor.id, 'admin');
      return db.transaction(async (tx) => {
        await lockCompany(tx, input.companyId);
        const row = await lockProject(tx, input.companyId, input.projectId);
        if (row.name !== input.name) {
          await requireFreeName(tx, input.companyId, input.name, row.id);
          await tx.update(projects).set({ name: input.name }).where(eq(projects.id, row.id));
          await recordAudit(tx, { actor: actorOf(actor), action: 'project.rename', targetType: 'project', targetId: row.id, companyId: input.companyId, before: { name: row.name }, after: { name: input.name } });
        }
        const [{ servers } = { servers: 0 }] = await tx.select({ servers: serverCount }).from(projects).where(eq(projects.id, row.id));
        return toDto({ ...row, name: input.name }, servers);
      });
    },

    async remove(actor: SessionUser, input: { companyId: string; projectId: string }): Promise<void> {
      await members.require(input.companyId, actor.id, 'admin');
      await db.transaction(async (tx) => {
        // The lock on the project row also waits for an order placing a server in it (its key share).
        const row = await lockProject(tx, input.companyId, input.projectId);
        const [{ servers } = { servers: 0 }] = await tx.select({ servers: serverCount }).from(projects).where(eq(projects.id, row.id));
        if (servers > 0) throw new AppError('PROJECT_HAS_SERVERS', { params: { count: String(servers) } });
        await tx.delete(projects).where(eq(projects.id, row.id));
        await recordAudit(tx, { actor: actorOf(actor), action: 'project.delete', targetType: 'project', targetId: row.id, companyId: input.companyId, before: { name: row.name } });
      });
    },
  };
}
