import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { AppUserDto, JobDto, VersionDto } from '../../domain/schemas';
import type { Db } from '../../../server/db/client';
import { analyticsAppUsers, analyticsJobs, analyticsMonthlyDevices, analyticsRequestHashes, analyticsTenants, analyticsVersions } from '../../../server/db/schema';
import { AppError } from '../../../server/errors';
import { DASHBOARD_VERSION } from '../../domain/constants';
import { recordAudit } from '../../../server/services/audit';
import { countRawEvents, deleteRawEventsOf, rawEventsOf, trimRawEvents } from './rawEvents';
import { appFor, canRead, type Access } from './access';

async function appUserOf(tx: Db, appId: string, deviceId: string) {
  const [user] = await tx.select().from(analyticsAppUsers).where(and(eq(analyticsAppUsers.appId, appId), eq(analyticsAppUsers.deviceId, deviceId)));
  if (!user) throw new AppError('ANALYTICS_APP_USER_NOT_FOUND');
  return user;
}

export async function findAppUser(tx: Db, access: Access, appId: string, deviceId: string): Promise<AppUserDto> {
  const app = await appFor(tx, access, appId, 'read');
  const user = await appUserOf(tx, app.id, deviceId);
  return {
    deviceId: user.deviceId,
    firstSeenAt: user.firstSeenAt.toISOString(),
    lastSeenAt: user.lastSeenAt.toISOString(),
    sessions: user.sessions,
    totalDuration: user.totalDuration,
    metrics: user.metrics,
    details: user.details,
    rawEvents: await countRawEvents(tx, app.id, deviceId),
  };
}

const downloadUrl = (access: Access, job: typeof analyticsJobs.$inferSelect) =>
  job.kind === 'export' && job.status === 'completed' && job.result !== null ? `/api/v1/analytics/${access.deploymentId}/jobs/${job.id}/download` : null;

function jobDto(access: Access, job: typeof analyticsJobs.$inferSelect): JobDto {
  return {
    _id: job.id,
    appId: job.appId,
    kind: job.kind as JobDto['kind'],
    status: job.status as JobDto['status'],
    params: job.params,
    createdAt: job.createdAt.toISOString(),
    finishedAt: job.finishedAt?.toISOString() ?? null,
    downloadUrl: downloadUrl(access, job),
  };
}

/**
 * Exports everything kept about one app user (profile, metrics, details, raw events) as a job
 * whose file the downloading view fetches. Run at once: one user's data is small and bounded by
 * the raw-event retention.
 */
export async function exportAppUser(tx: Db, access: Access, appId: string, deviceId: string): Promise<JobDto> {
  const app = await appFor(tx, access, appId, 'admin');
  const user = await appUserOf(tx, app.id, deviceId);
  const events = await rawEventsOf(tx, app.id, deviceId);
  const result = {
    app: { _id: app.id, name: app.name },
    user: { deviceId: user.deviceId, firstSeenAt: user.firstSeenAt.toISOString(), lastSeenAt: user.lastSeenAt.toISOString(), sessions: user.sessions, totalDuration: user.totalDuration, metrics: user.metrics, details: user.details },
    events,
  };
  const [job] = await tx.insert(analyticsJobs).values({ tenantId: access.tenantId, appId: app.id, kind: 'export', status: 'completed', params: { deviceId }, result, createdBy: access.member.id, finishedAt: new Date() }).returning();
  if (!job) throw new AppError('ANALYTICS_EXPORT_FAILED');
  await recordAudit(tx, { actor: access.audit, action: 'analyticsApp.exportUser', targetType: 'analyticsApp', targetId: app.id, companyId: access.companyId, after: { deviceId, jobId: job.id } });
  return jobDto(access, job);
}

/** The export file: JSON named with the export's date (SPEC §7 "a json file named with the date"). */
export async function downloadExport(tx: Db, access: Access, jobId: string): Promise<{ fileName: string; body: string }> {
  const [job] = await tx.select().from(analyticsJobs).where(and(eq(analyticsJobs.id, jobId), eq(analyticsJobs.tenantId, access.tenantId), eq(analyticsJobs.kind, 'export')));
  if (!job || !job.appId || !canRead(access, job.appId) || job.status !== 'completed' || job.result === null) throw new AppError('ANALYTICS_EXPORT_NOT_FOUND');
  const device = String(job.params.deviceId ?? 'user').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40);
  return { fileName: `export-${device}-${job.createdAt.toISOString().slice(0, 10)}.json`, body: JSON.stringify(job.result, null, 2) };
}

/**
 * Purges one app user completely (after the screen's confirmation): profile, raw events, month
 * devices, and the export files made of them. Aggregates hold no device and stay.
 */
export async function purgeAppUser(tx: Db, access: Access, appId: string, deviceId: string): Promise<void> {
  const app = await appFor(tx, access, appId, 'admin');
  await appUserOf(tx, app.id, deviceId);
  await tx.delete(analyticsAppUsers).where(and(eq(analyticsAppUsers.appId, app.id), eq(analyticsAppUsers.deviceId, deviceId)));
  await deleteRawEventsOf(tx, app.id, deviceId);
  await tx.delete(analyticsMonthlyDevices).where(and(eq(analyticsMonthlyDevices.appId, app.id), eq(analyticsMonthlyDevices.deviceId, deviceId)));
  const exports = await tx.select({ id: analyticsJobs.id, params: analyticsJobs.params }).from(analyticsJobs).where(and(eq(analyticsJobs.appId, app.id), eq(analyticsJobs.kind, 'export')));
  // The exports made of this user go too: their download links then answer that no export is linked.
  for (const job of exports.filter((j) => j.params.deviceId === deviceId)) await tx.update(analyticsJobs).set({ result: null }).where(eq(analyticsJobs.id, job.id));
  await tx.insert(analyticsJobs).values({ tenantId: access.tenantId, appId: app.id, kind: 'purge', status: 'completed', params: { deviceId }, createdBy: access.member.id, finishedAt: new Date() });
  await recordAudit(tx, { actor: access.audit, action: 'analyticsApp.purgeUser', targetType: 'analyticsApp', targetId: app.id, companyId: access.companyId, before: { deviceId } });
}

/** Records the version this build runs for every tenant that has not run it yet (version history). */
export async function recordRunningVersion(db: Db): Promise<void> {
  await db.execute(sql`insert into analytics_versions (tenant_id, version) select id, ${DASHBOARD_VERSION} from analytics_tenants on conflict do nothing`);
}

/** The jobs list: the tenant's jobs on apps the actor can read, newest first. */
export async function listJobs(tx: Db, access: Access): Promise<JobDto[]> {
  const jobs = await tx.select().from(analyticsJobs).where(eq(analyticsJobs.tenantId, access.tenantId)).orderBy(desc(analyticsJobs.createdAt)).limit(500);
  return jobs.filter((j) => j.appId === null || canRead(access, j.appId)).map((j) => jobDto(access, j));
}

export async function listVersions(tx: Db, access: Access): Promise<VersionDto[]> {
  const rows = await tx.select().from(analyticsVersions).where(eq(analyticsVersions.tenantId, access.tenantId)).orderBy(analyticsVersions.installedAt);
  return rows.map((r) => ({ version: r.version, installedAt: r.installedAt.toISOString() }));
}

/** Housekeeping: raw events past each tenant's retention and retry hashes older than a day. */
export async function sweep(db: Db, now = new Date()): Promise<void> {
  const tenants = await db.select({ days: analyticsTenants.rawRetentionDays }).from(analyticsTenants).groupBy(analyticsTenants.rawRetentionDays);
  // Raw events are per app; the retention is per tenant: delete through the app's tenant.
  for (const { days } of tenants) {
    const tenantsKeeping = sql`r.app_id in (select a.id from analytics_apps a join analytics_tenants t on t.id = a.tenant_id where t.raw_retention_days = ${days})`;
    await trimRawEvents(db, tenantsKeeping, new Date(now.getTime() - days * 86_400_000));
  }
  await db.delete(analyticsRequestHashes).where(lt(analyticsRequestHashes.receivedAt, new Date(now.getTime() - 86_400_000)));
}
