import { randomBytes } from 'node:crypto';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { ICON_TYPES } from '../../domain/constants';
import { clearBefore, dayIn } from '../../domain/rules';
import type { AppDto, AppInput, AppUpdate, ClearPeriod } from '../../domain/schemas';
import type { Db } from '../../../server/db/client';
import {
  analyticsAppMembers,
  analyticsAppUsers,
  analyticsApps,
  analyticsDailyEvents,
  analyticsDailySessions,
  analyticsDailyViews,
  analyticsDrops,
  analyticsEventGroups,
  analyticsEvents,
  analyticsJobs,
  analyticsMonthlyDevices,
  analyticsOverviewTiles,
  analyticsRawRequests,
  analyticsSegmentValues,
} from '../../../server/db/schema';
import { AppError } from '../../../server/errors';
import { checkImage, deleteFile, storeImage, type Upload } from '../../../server/services/files';
import { recordAudit } from '../../../server/services/audit';
import { appFor, canRead, requireGlobalAdmin, type Access } from './access';
import { appDtos } from './dto';
import { trimRawEvents } from './rawEvents';

/** A new app key: 40 hex characters, like Countly's. */
const newAppKey = () => randomBytes(20).toString('hex');

/**
 * An icon named in a create or update: only the app's own current icon (or none). A new icon comes
 * through the upload alone, so a file of someone else (which the next upload would delete) is never taken.
 */
function checkIcon(iconFileId: string | null | undefined, current: string | null) {
  if (iconFileId && iconFileId !== current) throw new AppError('ANALYTICS_ICON_NOT_FOUND', { fieldErrors: { iconFileId: ['errors.ANALYTICS_ICON_NOT_FOUND'] } });
}

export async function listApps(tx: Db, access: Access): Promise<AppDto[]> {
  const apps = await tx.select().from(analyticsApps).where(eq(analyticsApps.tenantId, access.tenantId)).orderBy(analyticsApps.name);
  return appDtos(tx, access, apps.filter((a) => canRead(access, a.id)));
}

/** Creating an app is a global admin's (as in Countly); its creator is recorded. */
export async function createApp(tx: Db, access: Access, input: AppInput): Promise<AppDto> {
  requireGlobalAdmin(access);
  checkIcon(input.iconFileId, null);
  const [app] = await tx
    .insert(analyticsApps)
    .values({
      tenantId: access.tenantId,
      name: input.name,
      type: input.type,
      category: input.category ?? null,
      key: newAppKey(),
      timezone: input.timezone,
      checksumSalt: input.checksumSalt || null,
      iconFileId: input.iconFileId ?? null,
      locked: input.locked ?? false,
      limits: input.limits ?? {},
      createdBy: access.member.id,
    })
    .returning();
  if (!app) throw new Error('app insert returned nothing');
  await recordAudit(tx, { actor: access.audit, action: 'analyticsApp.create', targetType: 'analyticsApp', targetId: app.id, companyId: access.companyId, after: { name: app.name, deploymentId: access.deploymentId } });
  const [dto] = await appDtos(tx, access, [app]);
  return dto as AppDto;
}

export async function updateApp(tx: Db, access: Access, appId: string, input: AppUpdate): Promise<AppDto> {
  const app = await appFor(tx, access, appId, 'admin');
  checkIcon(input.iconFileId, app.iconFileId);
  const changes = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.type !== undefined ? { type: input.type } : {}),
    ...(input.category !== undefined ? { category: input.category } : {}),
    ...(input.timezone !== undefined ? { timezone: input.timezone } : {}),
    ...(input.checksumSalt !== undefined ? { checksumSalt: input.checksumSalt || null } : {}),
    ...(input.iconFileId !== undefined ? { iconFileId: input.iconFileId } : {}),
    ...(input.locked !== undefined ? { locked: input.locked } : {}),
    ...(input.limits !== undefined ? { limits: input.limits } : {}),
  };
  const [updated] = await tx.update(analyticsApps).set({ ...changes, updatedAt: new Date() }).where(eq(analyticsApps.id, app.id)).returning();
  // A removed icon's file goes with it (it was this app's own: checkIcon).
  if (input.iconFileId === null && app.iconFileId) await deleteFile(tx, app.iconFileId);
  // The salt is a secret: recordAudit redacts it.
  await recordAudit(tx, { actor: access.audit, action: 'analyticsApp.update', targetType: 'analyticsApp', targetId: app.id, companyId: access.companyId, before: { name: app.name, locked: app.locked }, after: changes });
  const [dto] = await appDtos(tx, access, [updated ?? app]);
  return dto as AppDto;
}

/**
 * A new icon for an app (its admins): the bytes must be a JPG, PNG or GIF whatever the upload
 * claims; the previous icon file goes with the change.
 */
export async function uploadIcon(tx: Db, access: Access, appId: string, upload: Upload | null): Promise<AppDto> {
  const app = await appFor(tx, access, appId, 'admin');
  if (!upload) throw new AppError('VALIDATION_FAILED', { fieldErrors: { icon: ['validation.required'] } });
  const type = checkImage(upload, 'icon');
  if (!(ICON_TYPES as readonly string[]).includes(type)) throw new AppError('ANALYTICS_ICON_TYPE', { fieldErrors: { icon: ['errors.ANALYTICS_ICON_TYPE'] } });
  const iconFileId = await storeImage(tx, upload.data, type);
  const [updated] = await tx.update(analyticsApps).set({ iconFileId, updatedAt: new Date() }).where(eq(analyticsApps.id, app.id)).returning();
  await deleteFile(tx, app.iconFileId);
  await recordAudit(tx, { actor: access.audit, action: 'analyticsApp.icon', targetType: 'analyticsApp', targetId: app.id, companyId: access.companyId, before: { iconFileId: app.iconFileId }, after: { iconFileId } });
  const [dto] = await appDtos(tx, access, [updated ?? app]);
  return dto as AppDto;
}

/** Deleting and clearing: the app's admins only, and never while the app is locked. */
async function appForDataChange(tx: Db, access: Access, appId: string) {
  const app = await appFor(tx, access, appId, 'admin');
  if (app.locked) throw new AppError('ANALYTICS_APP_LOCKED');
  return app;
}

export async function deleteApp(tx: Db, access: Access, appId: string): Promise<void> {
  const app = await appForDataChange(tx, access, appId);
  await tx.delete(analyticsApps).where(eq(analyticsApps.id, app.id));
  await recordAudit(tx, { actor: access.audit, action: 'analyticsApp.delete', targetType: 'analyticsApp', targetId: app.id, companyId: access.companyId, before: { name: app.name } });
}

/**
 * Clears the app's data older than the period (all of it for 'all'): aggregates, raw events and
 * month devices before the cut. 'all' also forgets the app users, event definitions and groups,
 * as a fresh app. Recorded as a completed job.
 */
export async function clearApp(tx: Db, access: Access, appId: string, period: ClearPeriod): Promise<void> {
  const app = await appForDataChange(tx, access, appId);
  const cut = clearBefore(period, dayIn(app.timezone, new Date()));
  if (cut === null) {
    for (const table of [analyticsDailyEvents, analyticsDailySessions, analyticsDailyViews, analyticsMonthlyDevices, analyticsRawRequests, analyticsAppUsers, analyticsSegmentValues, analyticsDrops, analyticsOverviewTiles, analyticsEventGroups, analyticsEvents]) {
      await tx.delete(table).where(eq(table.appId, app.id));
    }
  } else {
    await tx.delete(analyticsDailyEvents).where(and(eq(analyticsDailyEvents.appId, app.id), lt(analyticsDailyEvents.day, cut)));
    await tx.delete(analyticsDailySessions).where(and(eq(analyticsDailySessions.appId, app.id), lt(analyticsDailySessions.day, cut)));
    await tx.delete(analyticsDailyViews).where(and(eq(analyticsDailyViews.appId, app.id), lt(analyticsDailyViews.day, cut)));
    await tx.delete(analyticsDrops).where(and(eq(analyticsDrops.appId, app.id), lt(analyticsDrops.day, cut)));
    await tx.delete(analyticsMonthlyDevices).where(and(eq(analyticsMonthlyDevices.appId, app.id), lt(analyticsMonthlyDevices.month, cut.slice(0, 7))));
    await trimRawEvents(tx, sql`r.app_id = ${app.id}`, new Date(`${cut}T00:00:00Z`));
  }
  await tx.insert(analyticsJobs).values({ tenantId: access.tenantId, appId: app.id, kind: 'clear', status: 'completed', params: { period }, createdBy: access.member.id, finishedAt: new Date() });
  await recordAudit(tx, { actor: access.audit, action: 'analyticsApp.clear', targetType: 'analyticsApp', targetId: app.id, companyId: access.companyId, after: { period } });
}

/** The members' app roles, after checking every app id belongs to this tenant. */
export async function setAppRoles(tx: Db, access: Access, memberId: string, adminOf: string[], userOf: string[]): Promise<void> {
  const ids = [...new Set([...adminOf, ...userOf])];
  if (ids.length) {
    const found = await tx.select({ id: analyticsApps.id }).from(analyticsApps).where(and(eq(analyticsApps.tenantId, access.tenantId), inArray(analyticsApps.id, ids)));
    if (found.length !== ids.length) throw new AppError('ANALYTICS_APP_NOT_FOUND');
  }
  await tx.delete(analyticsAppMembers).where(eq(analyticsAppMembers.memberId, memberId));
  const admin = new Set(adminOf);
  const rows = ids.map((appId) => ({ appId, memberId, role: admin.has(appId) ? ('admin' as const) : ('user' as const) }));
  if (rows.length) await tx.insert(analyticsAppMembers).values(rows);
}
