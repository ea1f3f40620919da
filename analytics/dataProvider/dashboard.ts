import { keepPreviousData, skipToken, useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { z } from 'zod';
import { ONE_SHOT } from '../../dataProvider/queries';
import type {
  appInputSchema,
  AppDto,
  AppUpdate,
  AppUserDto,
  ClearPeriod,
  DashboardSession,
  EventSeries,
  EventDto,
  eventTotalsSchema,
  EventUpdate,
  GroupDto,
  groupInputSchema,
  JobDto,
  limitsAnswerSchema,
  memberInputSchema,
  MemberCandidate,
  MemberDto,
  MemberUpdate,
  Overview,
  PasswordChange,
  ReportDto,
  reportInputSchema,
  ReportPreview,
  sessionsSchema,
  Tile,
  TokenDto,
  tokenInputSchema,
  TopEvents,
  VersionDto,
} from '../domain/schemas';

export type { MemberCandidate };
import type { ListPage, ListQuery } from '../domain/listing';
import type { SdkSettings, SdkSettingsAnswer } from '../domain/sdk';
import type { ViewTotals } from '../domain/views';

export type EventTotals = z.infer<typeof eventTotalsSchema>;
export type LimitsAnswer = z.infer<typeof limitsAnswerSchema>;
export type SessionsAnswer = z.infer<typeof sessionsSchema>;
export type AppCreate = z.input<typeof appInputSchema>;
export type MemberCreate = z.input<typeof memberInputSchema>;
export type GroupSave = z.input<typeof groupInputSchema>;
export type TokenCreate = z.input<typeof tokenInputSchema>;
export type ReportSave = z.input<typeof reportInputSchema>;
/** A day range, both ends 'YYYY-MM-DD', in the app's time zone. */
export interface Period {
  from: string;
  to: string;
}

/**
 * What the dashboard screens call. The screens see only this interface: the live
 * one, `createDashboardApi` (api.ts), calls the tenant API; the dashboard preview
 * (/tools/dashboard-preview) supplies a read-only one with generated data.
 */
export interface DashboardApi {
  /** False in the preview: the screens hide or disable every change. */
  readonly writable: boolean;
  open(): Promise<DashboardSession>;
  listApps(): Promise<AppDto[]>;
  createApp(body: AppCreate): Promise<AppDto>;
  updateApp(appId: string, body: AppUpdate): Promise<AppDto>;
  deleteApp(appId: string): Promise<null>;
  clearApp(appId: string, period: ClearPeriod): Promise<null>;
  /** `POST /analytics/{deploymentId}/apps/{appId}/icon`, multipart field `icon` (JPG, PNG or GIF): the app with its new icon. */
  uploadAppIcon(appId: string, file: File): Promise<AppDto>;
  /** A page of the apps the member reads (`GET /apps?page&perPage&sort&order&q`), the total from `x-total-count`. */
  appsPage(query: ListQuery): Promise<ListPage<AppDto>>;
  membersPage(query: ListQuery): Promise<ListPage<MemberDto>>;
  getMember(memberId: string): Promise<MemberDto>;
  /** `GET /analytics/{deploymentId}/members/candidates`: company users not yet on the dashboard (the add user form). */
  listMemberCandidates(): Promise<MemberCandidate[]>;
  addMember(body: MemberCreate): Promise<MemberDto>;
  updateMember(memberId: string, body: MemberUpdate): Promise<MemberDto>;
  removeMember(memberId: string): Promise<null>;
  me(): Promise<MemberDto>;
  changePassword(body: PasswordChange): Promise<null>;
  regenerateApiKey(): Promise<{ apiKey: string }>;
  listJobs(): Promise<JobDto[]>;
  /** The export file of a completed export job. */
  downloadExport(jobId: string): Promise<Blob>;
  listVersions(): Promise<VersionDto[]>;
  listEvents(appId: string, period: Period): Promise<EventTotals>;
  eventSeries(appId: string, key: string, period: Period & { segment?: string }): Promise<EventSeries>;
  updateEvent(appId: string, key: string, body: EventUpdate): Promise<EventDto>;
  topEvents(appId: string, window: TopEvents['window']): Promise<TopEvents>;
  listGroups(appId: string): Promise<GroupDto[]>;
  saveGroup(appId: string, groupId: string | null, body: GroupSave): Promise<GroupDto>;
  deleteGroup(appId: string, groupId: string): Promise<null>;
  overview(appId: string, period: Period): Promise<Overview>;
  saveTiles(appId: string, tiles: Tile[]): Promise<Tile[]>;
  sessions(appId: string, period: Period): Promise<SessionsAnswer>;
  listViews(appId: string, period: Period): Promise<ViewTotals[]>;
  sdkSettings(appId: string): Promise<SdkSettingsAnswer>;
  updateSdkSettings(appId: string, settings: SdkSettings): Promise<SdkSettingsAnswer>;
  limits(appId: string): Promise<LimitsAnswer>;
  findAppUser(appId: string, deviceId: string): Promise<AppUserDto>;
  exportAppUser(appId: string, deviceId: string): Promise<JobDto>;
  purgeAppUser(appId: string, deviceId: string): Promise<null>;
  tokensPage(query: ListQuery): Promise<ListPage<TokenDto>>;
  createToken(body: TokenCreate): Promise<{ token: string; record: TokenDto }>;
  deleteToken(tokenId: string): Promise<null>;
  /** Report manager: email reports on apps the member reads; changes need admin of each of their apps. */
  listReports(): Promise<ReportDto[]>;
  saveReport(reportId: string | null, body: ReportSave): Promise<ReportDto>;
  setReportEnabled(reportId: string, enabled: boolean): Promise<ReportDto>;
  deleteReport(reportId: string): Promise<null>;
  previewReport(reportId: string): Promise<ReportPreview>;
  sendReport(reportId: string): Promise<null>;
}

// Each dashboard api (a deployment's, or the sample's) gets a cache scope of its own.
const scopes = new WeakMap<DashboardApi, number>();
let lastScope = 0;
const scopeOf = (api: DashboardApi) => {
  const known = scopes.get(api);
  if (known !== undefined) return known;
  lastScope += 1;
  scopes.set(api, lastScope);
  return lastScope;
};

/**
 * A dashboard read through the app's query cache: `key` names what is read (e.g. the app and the
 * period), `load` null waits (no app yet). The last answer stays shown while a new key loads.
 */
export function useDashboardQuery<T>(api: DashboardApi, key: readonly unknown[], load: ((api: DashboardApi) => Promise<T>) | null, options: { refetchInterval?: UseQueryOptions<T>['refetchInterval'] } = {}) {
  return useQuery({ queryKey: ['analytics', scopeOf(api), ...key], queryFn: load ? () => load(api) : skipToken, placeholderData: keepPreviousData, ...ONE_SHOT, ...options });
}

/**
 * The dashboard's landing (`open`: maps the user in, answers what they see), once per dashboard:
 * never stale, so neither a reconnect nor a remount posts it again. `reloadApps` reads the apps
 * again into it after one is created, changed or deleted.
 */
export function useDashboardSession(api: DashboardApi) {
  const client = useQueryClient();
  const scope = scopeOf(api);
  const opened = useQuery({ queryKey: ['analytics', scope, 'open'], queryFn: () => api.open(), staleTime: Infinity, ...ONE_SHOT });
  const reloadApps = useCallback(async () => {
    const apps = await api.listApps();
    client.setQueryData<DashboardSession>(['analytics', scope, 'open'], (session) => session && { ...session, apps });
  }, [api, client, scope]);
  return { session: opened.data ?? null, error: opened.error, reloadApps };
}

/** The management lists the server pages (applications, users, tokens). */
export type DashboardList = 'apps' | 'members' | 'tokens';
const pageCalls = { apps: (api: DashboardApi, q: ListQuery) => api.appsPage(q), members: (api: DashboardApi, q: ListQuery) => api.membersPage(q), tokens: (api: DashboardApi, q: ListQuery) => api.tokensPage(q) };
type RowOf<L extends DashboardList> = Awaited<ReturnType<(typeof pageCalls)[L]>>['rows'][number];

/** A page of a management list read outside the cache (an export of the whole match). */
export const readListPage = <L extends DashboardList>(api: DashboardApi, list: L, query: ListQuery) => pageCalls[list](api, query) as Promise<ListPage<RowOf<L>>>;

/** One page of a management list as the table asks for it (null: the table has not said yet). */
export function useDashboardPage<L extends DashboardList>(api: DashboardApi, list: L, query: ListQuery | null) {
  return useDashboardQuery<ListPage<RowOf<L>>>(api, [list, query], query ? (a) => readListPage(a, list, query) : null);
}

/**
 * A dashboard change through the query cache: `call` with the input, then every read of this
 * dashboard is refetched (except the landing, which `reloadApps` refreshes when apps change).
 * A failure reaches the user through `useFormSubmit`'s `run` around `mutateAsync`.
 */
export function useDashboardMutation<I, T>(api: DashboardApi, call: (api: DashboardApi, input: I) => Promise<T>) {
  const client = useQueryClient();
  const scope = scopeOf(api);
  return useMutation({
    mutationFn: (input: I) => call(api, input),
    onSuccess: () => client.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'analytics' && q.queryKey[1] === scope && q.queryKey[2] !== 'open' }),
  });
}
