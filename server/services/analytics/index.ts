import type { Upload } from '../files';
import type { SdkSettings } from '../../../src/domain/analytics/sdk';
import type { AppInput, AppUpdate, ClearPeriod, DashboardSession, EventUpdate, GroupInput, MemberInput, MemberUpdate, PasswordChange, ReportInput, Tile, TokenInput, TopEvents } from '../../../src/domain/analytics/schemas';
import { DASHBOARD_VERSION } from '../../../src/domain/analytics/constants';
import type { ChangeFeed } from '../../db/changes';
import type { Db } from '../../db/client';
import type { Keyring } from '../secrets';
import { verifyServerLink, type ServerSignInLink } from '../serverSignInLink';
import type { SessionUser } from '../sessions';
import { resolveAccess, type Access, type AnalyticsActor } from './access';
import * as apps from './apps';
import * as appUsers from './appUsers';
import * as events from './events';
import { ingestBulk, ingestOne } from './ingest';
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
export { createTenant, removeTenant } from './tenants';
export { mauHistory, mauOfMonth } from './mau';
export { runDueReports, type ReportMailing } from './reports';

type Period = { from: string; to: string };
type On<I = object> = { deploymentId: string } & I;
type OnApp<I = object> = On<{ appId: string } & I>;

/**
 * Each deployment's analytics dashboard (issue 16): ingestion from the Countly SDKs and the
 * dashboard's API. Every method resolves the actor to a member of the deployment's tenant in the
 * transaction it opens, and each helper checks the member's rights for every app id it is given.
 */
export function createAnalyticsService(deps: { db: Db; mailing: reports.ReportMailing; changes: ChangeFeed; keyring: Keyring }) {
  const { db, mailing } = deps;
  const cache = createIngestCache(deps.changes);
  const as = <T>(actor: AnalyticsActor, deploymentId: string, work: (tx: Db, access: Access) => Promise<T>): Promise<T> =>
    db.transaction(async (tx) => work(tx, await resolveAccess(tx, deploymentId, actor)));

  return {
    ingest: (request: IngestRequest) => ingestOne(db, cache, request),
    ingestBulk: (request: IngestRequest) => ingestBulk(db, cache, request),
    sdkConfig: (request: IngestRequest) => sdk.sdkConfig(db, cache, request),
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
      await db.transaction((tx) => openTenant(tx, input.deploymentId, user));
      return as({ kind: 'session', user }, input.deploymentId, async (tx, access) => ({
        tenantId: access.tenantId,
        deploymentId: access.deploymentId,
        version: DASHBOARD_VERSION,
        member: await members.me(tx, access),
        apps: await apps.listApps(tx, access),
      }));
    },

    listApps: (actor: AnalyticsActor, input: On) => as(actor, input.deploymentId, (tx, a) => apps.listApps(tx, a)),
    createApp: (actor: AnalyticsActor, input: On<{ app: AppInput }>) => as(actor, input.deploymentId, (tx, a) => apps.createApp(tx, a, input.app)),
    updateApp: (actor: AnalyticsActor, input: OnApp<{ app: AppUpdate }>) => as(actor, input.deploymentId, (tx, a) => apps.updateApp(tx, a, input.appId, input.app)),
    uploadAppIcon: (actor: AnalyticsActor, input: OnApp<{ upload: Upload | null }>) => as(actor, input.deploymentId, (tx, a) => apps.uploadIcon(tx, a, input.appId, input.upload)),
    deleteApp: (actor: AnalyticsActor, input: OnApp) => as(actor, input.deploymentId, (tx, a) => apps.deleteApp(tx, a, input.appId)),
    clearApp: (actor: AnalyticsActor, input: OnApp<{ period: ClearPeriod }>) => as(actor, input.deploymentId, (tx, a) => apps.clearApp(tx, a, input.appId, input.period)),

    listMembers: (actor: AnalyticsActor, input: On) => as(actor, input.deploymentId, (tx, a) => members.listMembers(tx, a)),
    listMemberCandidates: (actor: AnalyticsActor, input: On) => as(actor, input.deploymentId, (tx, a) => members.listCandidates(tx, a)),
    addMember: (actor: AnalyticsActor, input: On<{ member: MemberInput }>) => as(actor, input.deploymentId, (tx, a) => members.addMember(tx, a, input.member)),
    updateMember: (actor: AnalyticsActor, input: On<{ memberId: string; member: MemberUpdate }>) => as(actor, input.deploymentId, (tx, a) => members.updateMember(tx, a, input.memberId, input.member)),
    removeMember: (actor: AnalyticsActor, input: On<{ memberId: string }>) => as(actor, input.deploymentId, (tx, a) => members.removeMember(tx, a, input.memberId)),
    me: (actor: AnalyticsActor, input: On) => as(actor, input.deploymentId, (tx, a) => members.me(tx, a)),
    changePassword: (actor: AnalyticsActor, input: On<{ change: PasswordChange }>) => as(actor, input.deploymentId, (tx, a) => members.changePassword(tx, a, input.change)),
    setApiKey: (actor: AnalyticsActor, input: On<{ apiKey: string | null }>) => as(actor, input.deploymentId, (tx, a) => members.setApiKey(tx, a, input.apiKey)),

    listEvents: (actor: AnalyticsActor, input: OnApp<Period>) => as(actor, input.deploymentId, (tx, a) => events.listEvents(tx, a, input.appId, input)),
    eventSeries: (actor: AnalyticsActor, input: OnApp<Period & { key: string; segment?: string }>) => as(actor, input.deploymentId, (tx, a) => events.eventSeries(tx, a, input.appId, input.key, input)),
    topEvents: (actor: AnalyticsActor, input: OnApp<{ window: TopEvents['window'] }>) => as(actor, input.deploymentId, (tx, a) => events.topEvents(tx, a, input.appId, input.window)),
    updateEvent: (actor: AnalyticsActor, input: OnApp<{ key: string; event: EventUpdate }>) => as(actor, input.deploymentId, (tx, a) => events.updateEvent(tx, a, input.appId, input.key, input.event)),
    listGroups: (actor: AnalyticsActor, input: OnApp) => as(actor, input.deploymentId, (tx, a) => events.listGroups(tx, a, input.appId)),
    saveGroup: (actor: AnalyticsActor, input: OnApp<{ groupId: string | null; group: GroupInput }>) => as(actor, input.deploymentId, (tx, a) => events.saveGroup(tx, a, input.appId, input.groupId, input.group)),
    deleteGroup: (actor: AnalyticsActor, input: OnApp<{ groupId: string }>) => as(actor, input.deploymentId, (tx, a) => events.deleteGroup(tx, a, input.appId, input.groupId)),
    saveTiles: (actor: AnalyticsActor, input: OnApp<{ tiles: Tile[] }>) => as(actor, input.deploymentId, (tx, a) => events.saveTiles(tx, a, input.appId, input.tiles)),
    overview: (actor: AnalyticsActor, input: OnApp<Period>) => as(actor, input.deploymentId, (tx, a) => events.overview(tx, a, input.appId, input)),
    sessions: (actor: AnalyticsActor, input: OnApp<Period>) => as(actor, input.deploymentId, (tx, a) => events.sessions(tx, a, input.appId, input)),
    listViews: (actor: AnalyticsActor, input: OnApp<Period>) => as(actor, input.deploymentId, (tx, a) => views.listViews(tx, a, input.appId, input)),
    limits: (actor: AnalyticsActor, input: OnApp) => as(actor, input.deploymentId, (tx, a) => events.limits(tx, a, input.appId)),
    sdkSettings: (actor: AnalyticsActor, input: OnApp) => as(actor, input.deploymentId, (tx, a) => sdk.getSdkSettings(tx, a, input.appId)),
    updateSdkSettings: (actor: AnalyticsActor, input: OnApp<{ settings: SdkSettings }>) => as(actor, input.deploymentId, (tx, a) => sdk.updateSdkSettings(tx, a, input.appId, input.settings)),

    listTokens: (actor: AnalyticsActor, input: On) => as(actor, input.deploymentId, (tx, a) => tokens.listTokens(tx, a)),
    createToken: (actor: AnalyticsActor, input: On<{ token: TokenInput }>) => as(actor, input.deploymentId, (tx, a) => tokens.createToken(tx, a, input.token)),
    deleteToken: (actor: AnalyticsActor, input: On<{ tokenId: string }>) => as(actor, input.deploymentId, (tx, a) => tokens.deleteToken(tx, a, input.tokenId)),

    findAppUser: (actor: AnalyticsActor, input: OnApp<{ deviceId: string }>) => as(actor, input.deploymentId, (tx, a) => appUsers.findAppUser(tx, a, input.appId, input.deviceId)),
    exportAppUser: (actor: AnalyticsActor, input: OnApp<{ deviceId: string }>) => as(actor, input.deploymentId, (tx, a) => appUsers.exportAppUser(tx, a, input.appId, input.deviceId)),
    purgeAppUser: (actor: AnalyticsActor, input: OnApp<{ deviceId: string }>) => as(actor, input.deploymentId, (tx, a) => appUsers.purgeAppUser(tx, a, input.appId, input.deviceId)),
    downloadExport: (actor: AnalyticsActor, input: On<{ jobId: string }>) => as(actor, input.deploymentId, (tx, a) => appUsers.downloadExport(tx, a, input.jobId)),
    listJobs: (actor: AnalyticsActor, input: On) => as(actor, input.deploymentId, (tx, a) => appUsers.listJobs(tx, a)),
    listReports: (actor: AnalyticsActor, input: On) => as(actor, input.deploymentId, (tx, a) => reports.listReports(tx, a)),
    createReport: (actor: AnalyticsActor, input: On<{ report: ReportInput }>) => as(actor, input.deploymentId, (tx, a) => reports.createReport(tx, a, input.report)),
    updateReport: (actor: AnalyticsActor, input: On<{ reportId: string; report: ReportInput }>) => as(actor, input.deploymentId, (tx, a) => reports.updateReport(tx, a, input.reportId, input.report)),
    setReportEnabled: (actor: AnalyticsActor, input: On<{ reportId: string; enabled: boolean }>) => as(actor, input.deploymentId, (tx, a) => reports.setReportEnabled(tx, a, input.reportId, input.enabled)),
    deleteReport: (actor: AnalyticsActor, input: On<{ reportId: string }>) => as(actor, input.deploymentId, (tx, a) => reports.deleteReport(tx, a, input.reportId)),
    previewReport: (actor: AnalyticsActor, input: On<{ reportId: string }>) => as(actor, input.deploymentId, (tx, a) => reports.previewReport(tx, a, mailing, input.reportId)),
    /** Sent after the commit that records it in the jobs list; answered once the mail is handed to the mailer. */
    async sendReportNow(actor: AnalyticsActor, input: On<{ reportId: string }>): Promise<void> {
      await reports.deliver(mailing, await as(actor, input.deploymentId, (tx, a) => reports.sendReportNow(tx, a, mailing, input.reportId)));
    },
    runDueReports: (now?: Date) => reports.runDueReports(db, mailing, now),
    listVersions: (actor: AnalyticsActor, input: On) => as(actor, input.deploymentId, (tx, a) => appUsers.listVersions(tx, a)),
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
