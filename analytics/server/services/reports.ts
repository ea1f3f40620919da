import { and, asc, count, desc, eq, gte, inArray, lte, notLike, sql } from 'drizzle-orm';
import type { TFunction } from 'i18next';
import { REPORT_SEND_NOW_PER_DAY, REPORT_SENDS_PER_DAY, REPORT_TOP_EVENTS, type ReportFrequency, type ReportMetric } from '../../domain/constants';
import { nextRunAt, reportPeriod } from '../../domain/reports';
import { INTERNAL_PREFIX } from '../../domain/rules';
import type { ReportDto, ReportInput, ReportPreview } from '../../domain/schemas';
import type { Db } from '../../../server/db/client';
import { analyticsApps, analyticsDailyEvents, analyticsDailySessions, analyticsEvents, analyticsJobs, analyticsMembers, analyticsReports, analyticsTenants, companyMembers, deployments, users } from '../../../server/db/schema';
import { AppError } from '../../../server/errors';
import type { Mailer } from '../../../server/mail/mailer';
import { recordAudit } from '../../../server/services/audit';
import { boundedSum } from './events';
import { analyticsAccessFor } from '../../domain/serverAccess';
import { appFor, canAdmin, canRead, serverStateOf, type Access } from './access';
import { renderReportMail, type ReportData } from './reportMail';

type Report = typeof analyticsReports.$inferSelect;

/** What sending a report needs besides the database: the product mailer, the strings and the dashboard's address. */
export interface ReportMailing {
  mailer: Mailer;
  t: TFunction;
  publicUrl: string;
}

/** A rendered report and its recipients, sent once the transaction that recorded it is committed. */
export interface ReportOutgoing {
  emails: string[];
  mail: ReportPreview;
  link: string;
}

async function dto(tx: Db, reports: Report[]): Promise<ReportDto[]> {
  const creatorIds = [...new Set(reports.flatMap((r) => (r.createdBy ? [r.createdBy] : [])))];
  const creators = new Map(creatorIds.length ? (await tx.select({ id: analyticsMembers.id, fullName: analyticsMembers.fullName }).from(analyticsMembers).where(inArray(analyticsMembers.id, creatorIds))).map((m) => [m.id, m.fullName]) : []);
  return reports.map((r) => ({
    _id: r.id,
    title: r.title,
    metrics: r.metrics as ReportMetric[],
    apps: r.appIds,
    emails: r.emails,
    frequency: r.frequency as ReportFrequency,
    hour: r.hour,
    minute: r.minute,
    timezone: r.timezone,
    dayOfWeek: r.dayOfWeek,
    dayOfMonth: r.dayOfMonth,
    enabled: r.enabled,
    nextRunAt: r.nextRunAt.toISOString(),
    lastSentAt: r.lastSentAt?.toISOString() ?? null,
    createdBy: r.createdBy && creators.has(r.createdBy) ? { _id: r.createdBy, fullName: creators.get(r.createdBy) ?? '' } : null,
    createdAt: r.createdAt.toISOString(),
  }));
}

const schedule = (r: Pick<Report, 'frequency' | 'hour' | 'minute' | 'timezone' | 'dayOfWeek' | 'dayOfMonth'>) => ({ ...r, frequency: r.frequency as ReportFrequency });

/** The report's fields from the form; the day the frequency does not use is dropped. */
function fields(input: ReportInput, now: Date) {
  const values = {
    title: input.title,
    metrics: [...new Set(input.metrics)],
    appIds: [...new Set(input.apps)],
    emails: [...new Set(input.emails)],
    frequency: input.frequency,
    hour: input.hour,
    minute: input.minute,
    timezone: input.timezone,
    dayOfWeek: input.frequency === 'weekly' ? input.dayOfWeek : null,
    dayOfMonth: input.frequency === 'monthly' ? input.dayOfMonth : null,
    enabled: input.enabled,
  };
  return { ...values, nextRunAt: nextRunAt(schedule(values), now) };
}

/**
 * Who may receive a tenant's reports: its dashboard users and the users of the company owning the
 * server (lower-cased addresses). Reports never go to addresses nobody there answers for.
 */
async function allowedRecipients(tx: Db, tenantId: string): Promise<Set<string>> {
  const dashboard = await tx.select({ email: analyticsMembers.email }).from(analyticsMembers).where(eq(analyticsMembers.tenantId, tenantId));
  const company = await tx
    .select({ email: users.email })
    .from(analyticsTenants)
    .innerJoin(deployments, eq(deployments.id, analyticsTenants.deploymentId))
    .innerJoin(companyMembers, eq(companyMembers.companyId, deployments.companyId))
    .innerJoin(users, eq(users.id, companyMembers.userId))
    .where(eq(analyticsTenants.id, tenantId));
  return new Set([...dashboard, ...company].map((r) => r.email.toLowerCase()));
}

async function requireRecipients(tx: Db, access: Access, emails: string[]): Promise<void> {
  const allowed = await allowedRecipients(tx, access.tenantId);
  const strangers = emails.filter((e) => !allowed.has(e.toLowerCase()));
  if (strangers.length) throw new AppError('ANALYTICS_REPORT_RECIPIENT', { fieldErrors: { emails: ['errors.ANALYTICS_REPORT_RECIPIENT'] } });
}

/** Report mailings of the tenant in the last 24 hours: all of them, or those sent by "send now". */
async function sentToday(tx: Db, tenantId: string, now: Date, manualOnly: boolean): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(analyticsJobs)
    .where(and(eq(analyticsJobs.tenantId, tenantId), eq(analyticsJobs.kind, 'report'), eq(analyticsJobs.status, 'completed'), gte(analyticsJobs.createdAt, new Date(now.getTime() - 86_400_000)), manualOnly ? sql`${analyticsJobs.params}->>'scheduled' = 'false'` : undefined));
  return row?.n ?? 0;
}

/** Reports are managed by the admins of every app they cover (global admins manage them all). */
async function requireAppsAdmin(tx: Db, access: Access, appIds: string[]): Promise<void> {
  for (const appId of appIds) await appFor(tx, access, appId, 'admin');
}

async function reportFor(tx: Db, access: Access, reportId: string, lock = false): Promise<Report> {
  const query = tx.select().from(analyticsReports).where(and(eq(analyticsReports.id, reportId), eq(analyticsReports.tenantId, access.tenantId)));
  const [report] = lock ? await query.for('update') : await query;
  // A report on apps the actor cannot read is not theirs to see: answered like one that does not exist.
  if (!report || !report.appIds.every((id) => canRead(access, id))) throw new AppError('ANALYTICS_REPORT_NOT_FOUND');
  if (!report.appIds.every((id) => canAdmin(access, id))) throw new AppError('ANALYTICS_APP_ADMIN_REQUIRED');
  return report;
}

/** The report manager's list: the reports on apps the actor can read. */
export async function listReports(tx: Db, access: Access): Promise<ReportDto[]> {
  const rows = await tx.select().from(analyticsReports).where(eq(analyticsReports.tenantId, access.tenantId)).orderBy(asc(analyticsReports.title), asc(analyticsReports.createdAt));
  return dto(tx, rows.filter((r) => r.appIds.every((id) => canRead(access, id))));
}

export async function createReport(tx: Db, access: Access, input: ReportInput, now = new Date()): Promise<ReportDto> {
  const values = fields(input, now);
  await requireAppsAdmin(tx, access, values.appIds);
  await requireRecipients(tx, access, values.emails);
  const [row] = await tx.insert(analyticsReports).values({ tenantId: access.tenantId, createdBy: access.member.id, ...values }).returning();
  if (!row) throw new Error('report insert returned nothing');
  await recordAudit(tx, { actor: access.audit, action: 'analyticsReport.create', targetType: 'analyticsReport', targetId: row.id, companyId: access.companyId, after: { title: row.title, apps: row.appIds, emails: row.emails, frequency: row.frequency } });
  return (await dto(tx, [row]))[0] as ReportDto;
}

export async function updateReport(tx: Db, access: Access, reportId: string, input: ReportInput, now = new Date()): Promise<ReportDto> {
  const before = await reportFor(tx, access, reportId, true);
  const values = fields(input, now);
  await requireAppsAdmin(tx, access, values.appIds);
  await requireRecipients(tx, access, values.emails);
  const [row] = await tx.update(analyticsReports).set({ ...values, updatedAt: now }).where(eq(analyticsReports.id, before.id)).returning();
  if (!row) throw new AppError('ANALYTICS_REPORT_NOT_FOUND');
  await recordAudit(tx, {
    actor: access.audit,
    action: 'analyticsReport.update',
    targetType: 'analyticsReport',
    targetId: row.id,
    companyId: access.companyId,
    before: { title: before.title, apps: before.appIds, emails: before.emails, frequency: before.frequency, enabled: before.enabled },
    after: { title: row.title, apps: row.appIds, emails: row.emails, frequency: row.frequency, enabled: row.enabled },
  });
  return (await dto(tx, [row]))[0] as ReportDto;
}

/** The list's switch: a report switched back on is next due at its next time from now, not at a time it missed. */
export async function setReportEnabled(tx: Db, access: Access, reportId: string, enabled: boolean, now = new Date()): Promise<ReportDto> {
  const before = await reportFor(tx, access, reportId, true);
  const [row] = await tx
    .update(analyticsReports)
    .set({ enabled, updatedAt: now, ...(enabled && !before.enabled ? { nextRunAt: nextRunAt(schedule(before), now) } : {}) })
    .where(eq(analyticsReports.id, before.id))
    .returning();
  if (!row) throw new AppError('ANALYTICS_REPORT_NOT_FOUND');
  if (before.enabled !== enabled) await recordAudit(tx, { actor: access.audit, action: 'analyticsReport.update', targetType: 'analyticsReport', targetId: row.id, companyId: access.companyId, before: { enabled: before.enabled }, after: { enabled } });
  return (await dto(tx, [row]))[0] as ReportDto;
}

export async function deleteReport(tx: Db, access: Access, reportId: string): Promise<void> {
  const report = await reportFor(tx, access, reportId, true);
  await tx.delete(analyticsReports).where(eq(analyticsReports.id, report.id));
  await recordAudit(tx, { actor: access.audit, action: 'analyticsReport.delete', targetType: 'analyticsReport', targetId: report.id, companyId: access.companyId, before: { title: report.title, apps: report.appIds, emails: report.emails } });
}

/** The numbers of each app of the report over the period, from the daily aggregates (days in each app's time zone). */
export async function reportData(tx: Db, report: Report, at: Date): Promise<ReportData> {
  const period = reportPeriod(report.frequency as ReportFrequency, report.timezone, at);
  const apps = await tx.select({ id: analyticsApps.id, name: analyticsApps.name }).from(analyticsApps).where(and(eq(analyticsApps.tenantId, report.tenantId), inArray(analyticsApps.id, report.appIds))).orderBy(asc(analyticsApps.name));
  const metrics = new Set(report.metrics);
  const s = analyticsDailySessions;
  const e = analyticsDailyEvents;
  const out: ReportData['apps'] = [];
  for (const app of apps) {
    const [sessions] = metrics.has('analytics')
      ? await tx
          .select({ sessions: sql<number>`coalesce(sum(${s.sessions}), 0)::float8`, newUsers: sql<number>`coalesce(sum(${s.newUsers}), 0)::float8`, duration: sql<number>`coalesce(sum(${s.duration}), 0)::float8` })
          .from(s)
          .where(and(eq(s.appId, app.id), gte(s.day, period.from), lte(s.day, period.to)))
      : [];
    const count = boundedSum(e.count);
    const where = and(eq(e.appId, app.id), eq(e.segment, ''), gte(e.day, period.from), lte(e.day, period.to), notLike(e.eventKey, `${INTERNAL_PREFIX}%`));
    const events = metrics.has('events')
      ? {
          total: (await tx.select({ count }).from(e).where(where))[0]?.count ?? 0,
          top: await tx
            .select({ key: e.eventKey, name: analyticsEvents.name, count, sum: boundedSum(e.sum) })
            .from(e)
            .innerJoin(analyticsEvents, and(eq(analyticsEvents.appId, e.appId), eq(analyticsEvents.key, e.eventKey)))
            .where(and(where, eq(analyticsEvents.visible, true)))
            .groupBy(e.eventKey, analyticsEvents.name)
            .orderBy(desc(count), asc(e.eventKey))
            .limit(REPORT_TOP_EVENTS),
        }
      : null;
    out.push({ name: app.name, analytics: sessions ?? null, events });
  }
  return { title: report.title, frequency: report.frequency as ReportFrequency, period, apps: out };
}

async function render(tx: Db, mailing: ReportMailing, report: Report, at: Date): Promise<ReportOutgoing> {
  const [tenant] = await tx.select({ deploymentId: analyticsTenants.deploymentId }).from(analyticsTenants).where(eq(analyticsTenants.id, report.tenantId));
  const link = `${mailing.publicUrl}/#/analytics/${tenant?.deploymentId ?? ''}`;
  // Checked again at each sending: someone who has left the company or the dashboard since gets nothing.
  const allowed = await allowedRecipients(tx, report.tenantId);
  return { emails: report.emails.filter((e) => allowed.has(e.toLowerCase())), link, mail: renderReportMail(mailing.t, await reportData(tx, report, at), link) };
}

/** Records a sent report in the jobs list. */
async function recordRun(tx: Db, report: Report, outgoing: ReportOutgoing, at: Date, by: string | null, scheduled: boolean) {
  const period = reportPeriod(report.frequency as ReportFrequency, report.timezone, at);
  await tx.insert(analyticsJobs).values({ tenantId: report.tenantId, appId: null, kind: 'report', status: 'completed', params: { reportId: report.id, title: report.title, ...period, recipients: outgoing.emails.length, scheduled }, createdBy: by, finishedAt: at });
}

export async function previewReport(tx: Db, access: Access, mailing: ReportMailing, reportId: string, now = new Date()): Promise<ReportPreview> {
  return (await render(tx, mailing, await reportFor(tx, access, reportId), now)).mail;
}

/** "Send now": the report as it would go at this moment, recorded in the jobs list; the caller sends it after commit. */
export async function sendReportNow(tx: Db, access: Access, mailing: ReportMailing, reportId: string, now = new Date()): Promise<ReportOutgoing> {
  const report = await reportFor(tx, access, reportId);
  // The tenant row is locked so that two sends at once cannot both pass the daily caps.
  await tx.select({ id: analyticsTenants.id }).from(analyticsTenants).where(eq(analyticsTenants.id, access.tenantId)).for('update');
  if ((await sentToday(tx, access.tenantId, now, true)) >= REPORT_SEND_NOW_PER_DAY) throw new AppError('ANALYTICS_REPORT_SEND_LIMIT', { params: { max: String(REPORT_SEND_NOW_PER_DAY) } });
  if ((await sentToday(tx, access.tenantId, now, false)) >= REPORT_SENDS_PER_DAY) throw new AppError('ANALYTICS_REPORT_SEND_LIMIT', { params: { max: String(REPORT_SENDS_PER_DAY) } });
  const outgoing = await render(tx, mailing, report, now);
  await recordRun(tx, report, outgoing, now, access.member.id, false);
  await tx.update(analyticsReports).set({ lastSentAt: now }).where(eq(analyticsReports.id, report.id));
  await recordAudit(tx, { actor: access.audit, action: 'analyticsReport.send', targetType: 'analyticsReport', targetId: report.id, companyId: access.companyId, after: { recipients: outgoing.emails.length } });
  return outgoing;
}

export async function deliver(mailing: ReportMailing, outgoing: ReportOutgoing): Promise<void> {
  for (const to of outgoing.emails) await mailing.mailer.send(to, outgoing.mail, outgoing.link);
}

/**
 * The reports schedule: every enabled report whose time has come is rendered, recorded in its
 * tenant's jobs list and moved to its next due time in one transaction (rows locked, SKIP LOCKED,
 * so two workers never send one report twice), then mailed. A report missed while no worker ran
 * goes once, not once per missed time. Returns how many were sent.
 */
export async function runDueReports(db: Db, mailing: ReportMailing, graceDays: number, now = new Date()): Promise<number> {
  let sent = 0;
  for (;;) {
    const outgoing = await db.transaction(async (tx) => {
      const [report] = await tx.select().from(analyticsReports).where(and(eq(analyticsReports.enabled, true), lte(analyticsReports.nextRunAt, now))).orderBy(asc(analyticsReports.nextRunAt)).limit(1).for('update', { skipLocked: true });
      if (!report) return null;
      // In a savepoint: a report that cannot be rendered is recorded as a failed job and moved on, never retried first forever.
      // Over the tenant's daily cap it is the same: recorded as failed, sent at its next time.
      const overCap = (await sentToday(tx, report.tenantId, now, false)) >= REPORT_SENDS_PER_DAY;
      // Reports are part of the service: only a live, paid-for server sends them (analyticsAccessFor).
      const [tenant] = await tx.select({ deploymentId: analyticsTenants.deploymentId }).from(analyticsTenants).where(eq(analyticsTenants.id, report.tenantId));
      const state = tenant ? await serverStateOf(tx, tenant.deploymentId) : null;
      const live = !!state && analyticsAccessFor(state, graceDays, now) === 'full';
      const out = !live ? new Error('server not running or not paid for') : overCap ? new Error(`daily limit of ${REPORT_SENDS_PER_DAY} reports reached`) : await tx.transaction((sp) => render(sp, mailing, report, now)).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
      if (out instanceof Error) {
        await tx.insert(analyticsJobs).values({ tenantId: report.tenantId, kind: 'report', status: 'failed', params: { reportId: report.id, title: report.title, scheduled: true, error: out.message.slice(0, 200) }, finishedAt: now });
      } else {
        await recordRun(tx, report, out, now, null, true);
      }
      await tx.update(analyticsReports).set({ nextRunAt: nextRunAt(schedule(report), now), ...(out instanceof Error ? {} : { lastSentAt: now }) }).where(eq(analyticsReports.id, report.id));
      return out;
    });
    if (!outgoing) return sent;
    if (outgoing instanceof Error) continue;
    await deliver(mailing, outgoing);
    sent += 1;
  }
}
