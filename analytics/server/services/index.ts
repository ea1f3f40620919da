import { TransactionRollbackError } from 'drizzle-orm';
import type { Upload } from '../../../server/services/files';
import type { SdkSettings } from '../../domain/sdk';
import type { AppInput, AppUpdate, ClearPeriod, DashboardSession, EventUpdate, GroupInput, MemberInput, MemberUpdate, PasswordChange, ReportInput, Tile, TokenInput, TopEvents } from '../../domain/schemas';
import { DASHBOARD_VERSION } from '../../domain/constants';
import { APP_SORT, MEMBER_SORT, pageOf, TOKEN_SORT, type ListQuery } from '../../domain/listing';
import type { ChangeFeed } from '../../../server/db/changes';
import type { Db } from '../../../server/db/client';
import type { Keyring } from '../../../server/services/secrets';
import { verifyServerLink, type ServerSignInLink } from '../../../server/services/serverSignInLink';
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { users } from '../../../server/db/schema';
import { AppError } from '../../../server/errors';
import { createServerSession, refuseSuspended, type SessionPolicy, type SessionUser } from '../../../server/services/sessions';
import { appFor, resolveAccess, type Access, type AnalyticsActor, type StateRule } from './access';
import * as apps from './apps';
import * as appUsers from './appUsers';
import * as events from './events';
import { ingestBulk, ingestOne } from './ingest';
import { createBatchWriter, type BatchOptions } from './ingestBatch';
import { createIngestCache } from './ingestCache';
import { mauHistory, mauOfMonth } from './mau';
import * as members from './members';
import type { IngestRequest } from './parse';
import * as reports from './reports';
import * as sdk from './sdk';
import { openTenant } from './tenants';
import * as tokens from './tokens';
import * as views from './views';

export type { AnalyticsActor } from './access';
export { BATCH_OPTIONS } from './ingestBatch';
export { createTenant, endCompanyAccess, removeTenant } from './tenants';
export { mauHistory, mauOfMonth } from './mau';
export { runDueReports, type ReportMailing } from './reports';

type Period = { from: string; to: string };
type On<I = object> = { deploymentId: string } & I;
type OnApp<I = object> = On<{ appId: string } & I>;

/**
 * Each deployment's analytics dashboard: ingestion from the Countly SDKs and the
 * dashboard's API. Every method resolves the actor to a member of the deployment's tenant in the
 * transaction it opens, and each helper checks the member's rights for every app id it is given.
 */
export function createAnalyticsService(deps: { db: Db; mailing: reports.ReportMailing; changes: ChangeFeed; keyring: Keyring; graceDays: number; batch: BatchOptions; sessionPolicy: SessionPolicy }) {
  const { db, mailing, graceDays } = deps;
  const cache = createIngestCache(deps.changes);
  // Every caller's accepted requests share batches: one statement per batch (group commit).
  const writer = createBatchWriter({ db, options: deps.batch });
  // Every call says whether it only reads the data kept (allowed on a paused server) or changes something.
  const on =
    (need: StateRule['need']) =>
    <T>(actor: AnalyticsActor, deploymentId: string, work: (tx: Db, access: Access) => Promise<T>): Promise<T> =>
      db.transaction(async (tx) => work(tx, await resolveAccess(tx, deploymentId, actor, { need, graceDays })));
  // The same checks in a transaction rolled back whatever they wrote (a spent token): a question, not a call.
  const dryRun =
    (need: StateRule['need']) =>
    async (actor: AnalyticsActor, deploymentId: string, work: (tx: Db, access: Access) => Promise<void>): Promise<void> => {
      try {
        await db.transaction(async (tx) => {
          await work(tx, await resolveAccess(tx, deploymentId, actor, { need, graceDays }));
          tx.rollback();
        });
      } catch (err) {
        if (!(err instanceof TransactionRollbackError)) throw err;
      }
    };
  const read = on('read');
  const write = on('write');
  // What only takes something away (a dashboard user, a token, one app user's data on request) stays possible on a paused server.
  const takeAway = read;

  return {
    ingest: (request: IngestRequest) => ingestOne(db, cache, writer, request, graceDays),
    ingestBulk: (request: IngestRequest) => ingestBulk(db, cache, writer, request, graceDays),
    sdkConfig: (request: IngestRequest) => sdk.sdkConfig(db, cache, request, graceDays),
    mauHistory: (deploymentId: string) => mauHistory(db, deploymentId),
    mauOfMonth: (deploymentIds: string[], month: string) => mauOfMonth(db, deploymentIds, month),
    sweep: () => appUsers.sweep(db),
    recordRunningVersion: () => appUsers.recordRunningVersion(db),

    /**
     * The dashboard's landing: through the server sign-in link its claims are checked first (a
     * refused link changes nothing); then the portal user is mapped in and sees the dashboard.
     */
    async open(user: SessionUser, input: On<{ link?: ServerSignInLink }>): Promise<DashboardSession> {
      if (input.link) verifyServerLink(deps.keyring, input.link, input.deploymentId, user.id);
      await db.transaction((tx) => openTenant(tx, input.deploymentId, user, graceDays));
      return read({ kind: 'session', user }, input.deploymentId, async (tx, access) => ({
        tenantId: access.tenantId,
        deploymentId: access.deploymentId,
        version: DASHBOARD_VERSION,
        access: access.level,
        member: await members.me(tx, access),
        apps: await apps.listApps(tx, access),
      }));
    },

    /**
     * The dashboard at the server's own address: the signed sign-in link is the credential (that
     * origin sees no portal cookie). Checked like the portal's landing, then the member is mapped
     * in, and only then a session valid at that address alone is made; each link makes one.
     */
    async signInAtServer(input: On<{ link: ServerSignInLink; meta: { ip?: string; userAgent?: string } }>): Promise<{ token: string; dashboard: DashboardSession }> {
      verifyServerLink(deps.keyring, input.link, input.deploymentId, input.link.user);
      const [user] = await db.select().from(users).where(eq(users.id, input.link.user));
      if (!user?.emailVerifiedAt) throw new AppError('ANALYTICS_SIGNIN_LINK_INVALID');
      refuseSuspended(user);
      const dashboard = await this.open(user, { deploymentId: input.deploymentId });
      const linkHash = createHash('sha256').update(input.link.sig).digest('hex');
      const token = await createServerSession(db, { userId: user.id, serverId: input.deploymentId, linkHash }, deps.sessionPolicy, input.meta);
      if (!token) throw new AppError('ANALYTICS_SIGNIN_LINK_INVALID');
      return { token, dashboard };
    },

    /** The apps the member reads; a page of them when `query.page` is set. */
    listApps: (actor: AnalyticsActor, input: On<{ query?: ListQuery }>) => read(actor, input.deploymentId, async (tx, a) => pageOf(await apps.listApps(tx, a), input.query ?? {}, APP_SORT)),
    createApp: (actor: AnalyticsActor, input: On<{ app: AppInput }>) => write(actor, input.deploymentId, (tx, a) => apps.createApp(tx, a, input.app)),
    updateApp: (actor: AnalyticsActor, input: OnApp<{ app: AppUpdate }>) => write(actor, input.deploymentId, (tx, a) => apps.updateApp(tx, a, input.appId, input.app)),
    /** The icon upload's rights, asked before its body is read; nothing is kept, so a single-use token is spent by the upload itself. */
    checkAppIconUpload: (actor: AnalyticsActor, input: OnApp) => dryRun('write')(actor, input.deploymentId, async (tx, a) => void (await appFor(tx, a, input.appId, 'admin'))),
    uploadAppIcon: (actor: AnalyticsActor, input: OnApp<{ upload: Upload | null }>) => write(actor, input.deploymentId, (tx, a) => apps.uploadIcon(tx, a, input.appId, input.upload)),
    deleteApp: (actor: AnalyticsActor, input: OnApp) => write(actor, input.deploymentId, (tx, a) => apps.deleteApp(tx, a, input.appId)),
    clearApp: (actor: AnalyticsActor, input: OnApp<{ period: ClearPeriod }>) => write(actor, input.deploymentId, (tx, a) => apps.clearApp(tx, a, input.appId, input.period)),

    listMembers: (actor: AnalyticsActor, input: On<{ query?: ListQuery }>) => read(actor, input.deploymentId, async (tx, a) => pageOf(await members.listMembers(tx, a), input.query ?? {}, MEMBER_SORT)),
    getMember: (actor: AnalyticsActor, input: On<{ memberId: string }>) => read(actor, input.deploymentId, (tx, a) => members.getMember(tx, a, input.memberId)),
    listMemberCandidates: (actor: AnalyticsActor, input: On) => read(actor, input.deploymentId, (tx, a) => members.listCandidates(tx, a)),
    addMember: (actor: AnalyticsActor, input: On<{ member: MemberInput }>) => write(actor, input.deploymentId, (tx, a) => members.addMember(tx, a, input.member)),
    updateMember: (actor: AnalyticsActor, input: On<{ memberId: string; member: MemberUpdate }>) => write(actor, input.deploymentId, (tx, a) => members.updateMember(tx, a, input.memberId, input.member)),
    removeMember: (actor: AnalyticsActor, input: On<{ memberId: string }>) => takeAway(actor, input.deploymentId, (tx, a) => members.removeMember(tx, a, input.memberId)),
    me: (actor: AnalyticsActor, input: On) => read(actor, input.deploymentId, (tx, a) => members.me(tx, a)),
    changePassword: (actor: AnalyticsActor, input: On<{ change: PasswordChange }>) => write(actor, input.deploymentId, (tx, a) => members.changePassword(tx, a, input.change)),
    regenerateApiKey: (actor: AnalyticsActor, input: On) => write(actor, input.deploymentId, (tx, a) => members.regenerateApiKey(tx, a)),

    listEvents: (actor: AnalyticsActor, input: OnApp<Period>) => read(actor, input.deploymentId, (tx, a) => events.listEvents(tx, a, input.appId, input)),
    eventSeries: (actor: AnalyticsActor, input: OnApp<Period & { key: string; segment?: string }>) => read(actor, input.deploymentId, (tx, a) => events.eventSeries(tx, a, input.appId, input.key, input)),
    topEvents: (actor: AnalyticsActor, input: OnApp<{ window: TopEvents['window'] }>) => read(actor, input.deploymentId, (tx, a) => events.topEvents(tx, a, input.appId, input.window)),
    updateEvent: (actor: AnalyticsActor, input: OnApp<{ key: string; event: EventUpdate }>) => write(actor, input.deploymentId, (tx, a) => events.updateEvent(tx, a, input.appId, input.key, input.event)),
    listGroups: (actor: AnalyticsActor, input: OnApp) => read(actor, input.deploymentId, (tx, a) => events.listGroups(tx, a, input.appId)),
    saveGroup: (actor: AnalyticsActor, input: OnApp<{ groupId: string | null; group: GroupInput }>) => write(actor, input.deploymentId, (tx, a) => events.saveGroup(tx, a, input.appId, input.groupId, input.group)),
    deleteGroup: (actor: AnalyticsActor, input: OnApp<{ groupId: string }>) => write(actor, input.deploymentId, (tx, a) => events.deleteGroup(tx, a, input.appId, input.groupId)),
    saveTiles: (actor: AnalyticsActor, input: OnApp<{ tiles: Tile[] }>) => write(actor, input.deploymentId, (tx, a) => events.saveTiles(tx, a, input.appId, input.tiles)),
    overview: (actor: AnalyticsActor, input: OnApp<Period>) => read(actor, input.deploymentId, (tx, a) => events.overview(tx, a, input.appId, input)),
    sessions: (actor: AnalyticsActor, input: OnApp<Period>) => read(actor, input.deploymentId, (tx, a) => events.sessions(tx, a, input.appId, input)),
    limits: (actor: AnalyticsActor, input: OnApp) => read(actor, input.deploymentId, (tx, a) => events.limits(tx, a, input.appId)),
    listViews: (actor: AnalyticsActor, input: OnApp<Period>) => read(actor, input.deploymentId, (tx, a) => views.listViews(tx, a, input.appId, input)),
    sdkSettings: (actor: AnalyticsActor, input: OnApp) => read(actor, input.deploymentId, (tx, a) => sdk.getSdkSettings(tx, a, input.appId)),
    updateSdkSettings: (actor: AnalyticsActor, input: OnApp<{ settings: SdkSettings }>) => write(actor, input.deploymentId, (tx, a) => sdk.updateSdkSettings(tx, a, input.appId, input.settings)),

    listTokens: (actor: AnalyticsActor, input: On<{ query?: ListQuery }>) => read(actor, input.deploymentId, async (tx, a) => pageOf(await tokens.listTokens(tx, a), input.query ?? {}, TOKEN_SORT)),
    createToken: (actor: AnalyticsActor, input: On<{ token: TokenInput }>) => write(actor, input.deploymentId, (tx, a) => tokens.createToken(tx, a, input.token)),
    deleteToken: (actor: AnalyticsActor, input: On<{ tokenId: string }>) => takeAway(actor, input.deploymentId, (tx, a) => tokens.deleteToken(tx, a, input.tokenId)),

    findAppUser: (actor: AnalyticsActor, input: OnApp<{ deviceId: string }>) => read(actor, input.deploymentId, (tx, a) => appUsers.findAppUser(tx, a, input.appId, input.deviceId)),
    exportAppUser: (actor: AnalyticsActor, input: OnApp<{ deviceId: string }>) => read(actor, input.deploymentId, (tx, a) => appUsers.exportAppUser(tx, a, input.appId, input.deviceId)),
    purgeAppUser: (actor: AnalyticsActor, input: OnApp<{ deviceId: string }>) => takeAway(actor, input.deploymentId, (tx, a) => appUsers.purgeAppUser(tx, a, input.appId, input.deviceId)),
    downloadExport: (actor: AnalyticsActor, input: On<{ jobId: string }>) => read(actor, input.deploymentId, (tx, a) => appUsers.downloadExport(tx, a, input.jobId)),
    listJobs: (actor: AnalyticsActor, input: On) => read(actor, input.deploymentId, (tx, a) => appUsers.listJobs(tx, a)),
    listReports: (actor: AnalyticsActor, input: On) => read(actor, input.deploymentId, (tx, a) => reports.listReports(tx, a)),
    createReport: (actor: AnalyticsActor, input: On<{ report: ReportInput }>) => write(actor, input.deploymentId, (tx, a) => reports.createReport(tx, a, input.report)),
    updateReport: (actor: AnalyticsActor, input: On<{ reportId: string; report: ReportInput }>) => write(actor, input.deploymentId, (tx, a) => reports.updateReport(tx, a, input.reportId, input.report)),
    setReportEnabled: (actor: AnalyticsActor, input: On<{ reportId: string; enabled: boolean }>) => write(actor, input.deploymentId, (tx, a) => reports.setReportEnabled(tx, a, input.reportId, input.enabled)),
    deleteReport: (actor: AnalyticsActor, input: On<{ reportId: string }>) => write(actor, input.deploymentId, (tx, a) => reports.deleteReport(tx, a, input.reportId)),
    previewReport: (actor: AnalyticsActor, input: On<{ reportId: string }>) => read(actor, input.deploymentId, (tx, a) => reports.previewReport(tx, a, mailing, input.reportId)),
    /** Sent after the commit that records it in the jobs list; answered once the mail is handed to the mailer. */
    async sendReportNow(actor: AnalyticsActor, input: On<{ reportId: string }>): Promise<void> {
      await reports.deliver(mailing, await write(actor, input.deploymentId, (tx, a) => reports.sendReportNow(tx, a, mailing, input.reportId)));
    },
    runDueReports: (now?: Date) => reports.runDueReports(db, mailing, graceDays, now),
    listVersions: (actor: AnalyticsActor, input: On) => read(actor, input.deploymentId, (tx, a) => appUsers.listVersions(tx, a)),
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
