import type {
  AppDto,
  AppInput,
  AppUpdate,
  AppUserDto,
  ClearPeriod,
  DashboardSession,
  EventDto,
  EventSeries,
  EventUpdate,
  GroupDto,
  GroupInput,
  JobDto,
  MemberDto,
  MemberInput,
  MemberUpdate,
  OpenInput,
  Overview,
  PasswordChange,
  ReportDto,
  ReportInput,
  ReportPreview,
  Tile,
  TokenDto,
  TokenInput,
  TopEvents,
  VersionDto,
} from '../domain/schemas';
import type { DropKind } from '../domain/constants';
import type { SdkSettings, SdkSettingsAnswer } from '../domain/sdk';
import type { ViewTotals } from '../domain/views';
import { API_BASE, apiDownload, apiFetch } from '../../dataProvider/httpClient';

/** Typed calls of a deployment's analytics dashboard (issue 16), for its screens. */
const send = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
  (await apiFetch<T>(path, { method, body: body === undefined ? undefined : JSON.stringify(body) })).payload;

type Period = { from: string; to: string };
type Totals = { count: number; sum: number; dur: number };
const q = (params: Record<string, string | undefined>) => new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined)).toString();
const enc = encodeURIComponent;

/** The calls of one deployment's dashboard: `analyticsApi(deploymentId).apps.list()`. */
export function analyticsApi(deploymentId: string) {
  const base = `/analytics/${enc(deploymentId)}`;
  const app = (appId: string) => `${base}/apps/${enc(appId)}`;
  return {
    /** The dashboard's landing: maps the user in and answers what they see; through the server sign-in link, with its signed claims. */
    open: (input: OpenInput = {}) => send<DashboardSession>('POST', `${base}/open`, input),
    apps: {
      list: () => send<AppDto[]>('GET', `${base}/apps`),
      create: (input: AppInput) => send<AppDto>('POST', `${base}/apps`, input),
      update: (appId: string, input: AppUpdate) => send<AppDto>('PUT', app(appId), input),
      remove: (appId: string) => send<null>('DELETE', app(appId)),
      clear: (appId: string, period: ClearPeriod) => send<null>('POST', `${app(appId)}/clear`, { period }),
    },
    members: {
      list: () => send<MemberDto[]>('GET', `${base}/members`),
      add: (input: MemberInput) => send<MemberDto>('POST', `${base}/members`, input),
      update: (memberId: string, input: MemberUpdate) => send<MemberDto>('PUT', `${base}/members/${enc(memberId)}`, input),
      remove: (memberId: string) => send<null>('DELETE', `${base}/members/${enc(memberId)}`),
    },
    me: {
      get: () => send<MemberDto>('GET', `${base}/me`),
      changePassword: (change: PasswordChange) => send<null>('PUT', `${base}/me/password`, change),
      regenerateApiKey: () => send<{ apiKey: string }>('POST', `${base}/me/api-key/regenerate`, {}),
    },
    events: {
      list: (appId: string, period: Period) => send<(EventDto & { totals: Totals })[]>('GET', `${app(appId)}/events?${q(period)}`),
      series: (appId: string, key: string, period: Period & { segment?: string }) => send<EventSeries>('GET', `${app(appId)}/events/${enc(key)}/series?${q(period)}`),
      update: (appId: string, key: string, input: EventUpdate) => send<EventDto>('PUT', `${app(appId)}/events/${enc(key)}`, input),
      top: (appId: string, window: TopEvents['window']) => send<TopEvents>('GET', `${app(appId)}/top-events?${q({ window })}`),
    },
    groups: {
      list: (appId: string) => send<GroupDto[]>('GET', `${app(appId)}/groups`),
      create: (appId: string, input: GroupInput) => send<GroupDto>('POST', `${app(appId)}/groups`, input),
      update: (appId: string, groupId: string, input: GroupInput) => send<GroupDto>('PUT', `${app(appId)}/groups/${enc(groupId)}`, input),
      remove: (appId: string, groupId: string) => send<null>('DELETE', `${app(appId)}/groups/${enc(groupId)}`),
    },
    overview: {
      get: (appId: string, period: Period) => send<Overview>('GET', `${app(appId)}/overview?${q(period)}`),
      save: (appId: string, tiles: Tile[]) => send<Tile[]>('PUT', `${app(appId)}/overview`, { tiles }),
    },
    sdkSettings: {
      get: (appId: string) => send<SdkSettingsAnswer>('GET', `${app(appId)}/sdk-settings`),
      update: (appId: string, settings: SdkSettings) => send<SdkSettingsAnswer>('PUT', `${app(appId)}/sdk-settings`, settings),
    },
    views: (appId: string, period: Period) => send<ViewTotals[]>('GET', `${app(appId)}/views?${q(period)}`),
    sessions: (appId: string, period: Period) => send<{ days: { day: string; sessions: number; newUsers: number; duration: number }[] }>('GET', `${app(appId)}/sessions?${q(period)}`),
    /** The limits and what they dropped: the limit messages (with their link) are shown from this. */
    limits: (appId: string) => send<{ limits: Record<'eventKeys' | 'segmentsPerEvent' | 'valuesPerSegment', number>; drops: { kind: DropKind; count: number }[] }>('GET', `${app(appId)}/limits`),
    tokens: {
      list: () => send<TokenDto[]>('GET', `${base}/tokens`),
      /** The token is in this answer only. */
      create: (input: TokenInput) => send<{ token: string; record: TokenDto }>('POST', `${base}/tokens`, input),
      remove: (tokenId: string) => send<null>('DELETE', `${base}/tokens/${enc(tokenId)}`),
    },
    appUsers: {
      find: (appId: string, deviceId: string) => send<AppUserDto>('GET', `${app(appId)}/app-users/${enc(deviceId)}`),
      export: (appId: string, deviceId: string) => send<JobDto>('POST', `${app(appId)}/app-users/${enc(deviceId)}/export`, {}),
      /** After the screen's confirmation. */
      purge: (appId: string, deviceId: string) => send<null>('POST', `${app(appId)}/app-users/${enc(deviceId)}/purge`, { confirm: true }),
    },
    jobs: {
      list: () => send<JobDto[]>('GET', `${base}/jobs`),
      /** The downloading view: the export file (its name, with the date, is in content-disposition). */
      download: (job: JobDto) => apiDownload((job.downloadUrl ?? '').replace(API_BASE, '')),
    },
    versions: () => send<VersionDto[]>('GET', `${base}/versions`),
    reports: {
      list: () => send<ReportDto[]>('GET', `${base}/reports`),
      create: (input: ReportInput) => send<ReportDto>('POST', `${base}/reports`, input),
      update: (reportId: string, input: ReportInput) => send<ReportDto>('PUT', `${base}/reports/${enc(reportId)}`, input),
      setEnabled: (reportId: string, enabled: boolean) => send<ReportDto>('PUT', `${base}/reports/${enc(reportId)}/status`, { enabled }),
      remove: (reportId: string) => send<null>('DELETE', `${base}/reports/${enc(reportId)}`),
      preview: (reportId: string) => send<ReportPreview>('GET', `${base}/reports/${enc(reportId)}/preview`),
      /** "Send now": mailed at once to the report's addresses and recorded in the jobs list. */
      send: (reportId: string) => send<null>('POST', `${base}/reports/${enc(reportId)}/send`, {}),
    },
  };
}

export type AnalyticsApi = ReturnType<typeof analyticsApi>;
