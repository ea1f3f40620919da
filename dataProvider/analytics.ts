import type { z } from 'zod';
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
  MemberDto,
  MemberUpdate,
  Overview,
  PasswordChange,
  sessionsSchema,
  Tile,
  TokenDto,
  tokenInputSchema,
  TopEvents,
  VersionDto,
} from '../src/domain/analytics/schemas';
import { apiDownload, apiFetch } from './httpClient';

export type EventTotals = z.infer<typeof eventTotalsSchema>;
export type LimitsAnswer = z.infer<typeof limitsAnswerSchema>;
export type SessionsAnswer = z.infer<typeof sessionsSchema>;
export type AppCreate = z.input<typeof appInputSchema>;
export type MemberCreate = z.input<typeof memberInputSchema>;
export type GroupSave = z.input<typeof groupInputSchema>;
export type TokenCreate = z.input<typeof tokenInputSchema>;
/** A company user who may be added to the dashboard. */
export interface MemberCandidate {
  userId: string;
  fullName: string;
  email: string;
}
/** A day range, both ends 'YYYY-MM-DD', in the app's time zone. */
export interface Period {
  from: string;
  to: string;
}

/**
 * Every call of one server's analytics dashboard (issue 16), `/api/v1/analytics/{deploymentId}/...`.
 * The dashboard screens see only this interface: the live one below talks to the tenant API, the
 * dashboard preview (/tools/dashboard-preview) supplies a read-only one with generated data.
 */
export interface AnalyticsApi {
  /** False in the preview: the screens hide or disable every change. */
  readonly writable: boolean;
  open(): Promise<DashboardSession>;
  listApps(): Promise<AppDto[]>;
  createApp(body: AppCreate): Promise<AppDto>;
  updateApp(appId: string, body: AppUpdate): Promise<AppDto>;
  deleteApp(appId: string): Promise<null>;
  clearApp(appId: string, period: ClearPeriod): Promise<null>;
  /**
   * EXPECTED, not yet on the server: `POST /analytics/{deploymentId}/apps/{appId}/icon`, multipart
   * field `icon` (JPG, PNG or GIF), answering the app with its new iconFileId.
   */
  uploadAppIcon(appId: string, file: File): Promise<AppDto>;
  listMembers(): Promise<MemberDto[]>;
  /**
   * EXPECTED, not yet on the server: `GET /analytics/{deploymentId}/members/candidates`, the users
   * of the company owning the server who are not dashboard users yet (for the add user form).
   */
  listMemberCandidates(): Promise<MemberCandidate[]>;
  addMember(body: MemberCreate): Promise<MemberDto>;
  updateMember(memberId: string, body: MemberUpdate): Promise<MemberDto>;
  removeMember(memberId: string): Promise<null>;
  me(): Promise<MemberDto>;
  changePassword(body: PasswordChange): Promise<null>;
  setApiKey(apiKey: string): Promise<{ apiKey: string }>;
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
  limits(appId: string): Promise<LimitsAnswer>;
  findAppUser(appId: string, deviceId: string): Promise<AppUserDto>;
  exportAppUser(appId: string, deviceId: string): Promise<JobDto>;
  purgeAppUser(appId: string, deviceId: string): Promise<null>;
  listTokens(): Promise<TokenDto[]>;
  createToken(body: TokenCreate): Promise<{ token: string; record: TokenDto }>;
  deleteToken(tokenId: string): Promise<null>;
}

const json = (method: string, body?: unknown): RequestInit => ({ method, body: JSON.stringify(body ?? {}) });

/** The live dashboard of deployment `deploymentId`, as the signed-in user (session cookie). */
export function createAnalyticsApi(deploymentId: string): AnalyticsApi {
  const base = `/analytics/${encodeURIComponent(deploymentId)}`;
  const call = async <T>(path: string, init?: RequestInit) => (await apiFetch<T>(`${base}${path}`, init)).payload;
  const app = (appId: string) => `/apps/${encodeURIComponent(appId)}`;
  const range = (p: Period & { segment?: string }) => `?${new URLSearchParams({ from: p.from, to: p.to, ...(p.segment ? { segment: p.segment } : {}) })}`;
  return {
    writable: true,
    open: () => call('/open', json('POST')),
    listApps: () => call('/apps'),
    createApp: (body) => call('/apps', json('POST', body)),
    updateApp: (appId, body) => call(app(appId), json('PUT', body)),
    deleteApp: (appId) => call(app(appId), { method: 'DELETE' }),
    clearApp: (appId, period) => call(`${app(appId)}/clear`, json('POST', { period })),
    uploadAppIcon: (appId, file) => {
      const form = new FormData();
      form.append('icon', file);
      return call(`${app(appId)}/icon`, { method: 'POST', body: form });
    },
    listMembers: () => call('/members'),
    listMemberCandidates: () => call('/members/candidates'),
    addMember: (body) => call('/members', json('POST', body)),
    updateMember: (memberId, body) => call(`/members/${encodeURIComponent(memberId)}`, json('PUT', body)),
    removeMember: (memberId) => call(`/members/${encodeURIComponent(memberId)}`, { method: 'DELETE' }),
    me: () => call('/me'),
    changePassword: (body) => call('/me/password', json('PUT', body)),
    setApiKey: (apiKey) => call('/me/api-key', json('PUT', { apiKey })),
    regenerateApiKey: () => call('/me/api-key/regenerate', json('POST')),
    listJobs: () => call('/jobs'),
    downloadExport: (jobId) => apiDownload(`${base}/jobs/${encodeURIComponent(jobId)}/download`),
    listVersions: () => call('/versions'),
    listEvents: (appId, period) => call(`${app(appId)}/events${range(period)}`),
    eventSeries: (appId, key, period) => call(`${app(appId)}/events/${encodeURIComponent(key)}/series${range(period)}`),
    updateEvent: (appId, key, body) => call(`${app(appId)}/events/${encodeURIComponent(key)}`, json('PUT', body)),
    topEvents: (appId, window) => call(`${app(appId)}/top-events?window=${window}`),
    listGroups: (appId) => call(`${app(appId)}/groups`),
    saveGroup: (appId, groupId, body) => (groupId ? call(`${app(appId)}/groups/${encodeURIComponent(groupId)}`, json('PUT', body)) : call(`${app(appId)}/groups`, json('POST', body))),
    deleteGroup: (appId, groupId) => call(`${app(appId)}/groups/${encodeURIComponent(groupId)}`, { method: 'DELETE' }),
    overview: (appId, period) => call(`${app(appId)}/overview${range(period)}`),
    saveTiles: (appId, tiles) => call(`${app(appId)}/overview`, json('PUT', { tiles })),
    sessions: (appId, period) => call(`${app(appId)}/sessions${range(period)}`),
    limits: (appId) => call(`${app(appId)}/limits`),
    findAppUser: (appId, deviceId) => call(`${app(appId)}/app-users/${encodeURIComponent(deviceId)}`),
    exportAppUser: (appId, deviceId) => call(`${app(appId)}/app-users/${encodeURIComponent(deviceId)}/export`, json('POST')),
    purgeAppUser: (appId, deviceId) => call(`${app(appId)}/app-users/${encodeURIComponent(deviceId)}/purge`, json('POST', { confirm: true })),
    listTokens: () => call('/tokens'),
    createToken: (body) => call('/tokens', json('POST', body)),
    deleteToken: (tokenId) => call(`/tokens/${encodeURIComponent(tokenId)}`, { method: 'DELETE' }),
  };
}
