import type { OpenInput, TopEvents } from '../domain/schemas';
import { TOTAL_HEADER, type ListPage, type ListQuery } from '../domain/listing';
import { API_BASE, apiDownload, apiFetch } from '../../dataProvider/httpClient';
import type { DashboardApi, Period } from './dashboard';
import { clientConfig } from '../../src/clientConfig';

/** The tenant API's calls; each answer's type comes from `DashboardApi`, which the screens see. */
const send = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
  (await apiFetch<T>(path, { method, body: body === undefined || body instanceof FormData ? body : JSON.stringify(body) })).payload;

const q = (params: Record<string, string | undefined>) => new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined)).toString();
/** A management list's page: the rows, and the total the server puts in `x-total-count`. */
const sendPage = async <T>(path: string, query: ListQuery): Promise<ListPage<T>> => {
  const res = await apiFetch<T[]>(`${path}?${q({ page: query.page?.toString(), perPage: query.perPage?.toString(), sort: query.sort, order: query.order, q: query.q || undefined })}`);
  return { rows: res.payload, total: Number(res.headers.get(TOTAL_HEADER) ?? res.payload.length) };
};

const enc = encodeURIComponent;

/**
 * The live dashboard of deployment `deploymentId`, as the signed-in user (session cookie). `link`:
 * the signed claims of the server sign-in link it was opened through, checked by the landing.
 */
export function createDashboardApi(deploymentId: string, link?: OpenInput['link']): DashboardApi {
  const base = `/analytics/${enc(deploymentId)}`;
  const app = (appId: string) => `${base}/apps/${enc(appId)}`;
  const period = ({ from, to, segment }: Period & { segment?: string }) => q({ from, to, segment });
  const listJobs = () => send<Awaited<ReturnType<DashboardApi['listJobs']>>>('GET', `${base}/jobs`);
  return {
    writable: true,
    // The dashboard's landing: maps the user in and answers what they see. At the server's own
    // address the link itself signs the member in there (that origin has no portal session).
    open: () => (link && clientConfig.serverDashboard ? send('POST', `${base}/signin`, { link }) : send('POST', `${base}/open`, link ? { link } : {})),
    listApps: () => send('GET', `${base}/apps`),
    createApp: (body) => send('POST', `${base}/apps`, body),
    updateApp: (appId, body) => send('PUT', app(appId), body),
    deleteApp: (appId) => send('DELETE', app(appId)),
    clearApp: (appId, clear) => send('POST', `${app(appId)}/clear`, { period: clear }),
    uploadAppIcon: (appId, file) => {
      const form = new FormData();
      form.append('icon', file);
      return send('POST', `${app(appId)}/icon`, form);
    },
    appsPage: (query) => sendPage(`${base}/apps`, query),
    membersPage: (query) => sendPage(`${base}/members`, query),
    getMember: (memberId) => send('GET', `${base}/members/${enc(memberId)}`),
    listMemberCandidates: () => send('GET', `${base}/members/candidates`),
    addMember: (body) => send('POST', `${base}/members`, body),
    updateMember: (memberId, body) => send('PUT', `${base}/members/${enc(memberId)}`, body),
    removeMember: (memberId) => send('DELETE', `${base}/members/${enc(memberId)}`),
    me: () => send('GET', `${base}/me`),
    changePassword: (body) => send('PUT', `${base}/me/password`, body),
    regenerateApiKey: () => send('POST', `${base}/me/api-key/regenerate`, {}),
    listJobs,
    // The export file (its name, with the date, is in content-disposition), from the job's own link.
    downloadExport: async (jobId) => {
      const job = (await listJobs()).find((j) => j._id === jobId);
      return apiDownload((job?.downloadUrl ?? `${API_BASE}${base}/jobs/${enc(jobId)}/download`).replace(API_BASE, ''));
    },
    listVersions: () => send('GET', `${base}/versions`),
    listEvents: (appId, p) => send('GET', `${app(appId)}/events?${period(p)}`),
    eventSeries: (appId, key, p) => send('GET', `${app(appId)}/events/${enc(key)}/series?${period(p)}`),
    updateEvent: (appId, key, body) => send('PUT', `${app(appId)}/events/${enc(key)}`, body),
    topEvents: (appId, window: TopEvents['window']) => send('GET', `${app(appId)}/top-events?${q({ window })}`),
    listGroups: (appId) => send('GET', `${app(appId)}/groups`),
    saveGroup: (appId, groupId, body) => (groupId ? send('PUT', `${app(appId)}/groups/${enc(groupId)}`, body) : send('POST', `${app(appId)}/groups`, body)),
    deleteGroup: (appId, groupId) => send('DELETE', `${app(appId)}/groups/${enc(groupId)}`),
    overview: (appId, p) => send('GET', `${app(appId)}/overview?${period(p)}`),
    saveTiles: (appId, tiles) => send('PUT', `${app(appId)}/overview`, { tiles }),
    sessions: (appId, p) => send('GET', `${app(appId)}/sessions?${period(p)}`),
    listViews: (appId, p) => send('GET', `${app(appId)}/views?${period(p)}`),
    sdkSettings: (appId) => send('GET', `${app(appId)}/sdk-settings`),
    updateSdkSettings: (appId, settings) => send('PUT', `${app(appId)}/sdk-settings`, settings),
    limits: (appId) => send('GET', `${app(appId)}/limits`),
    findAppUser: (appId, deviceId) => send('GET', `${app(appId)}/app-users/${enc(deviceId)}`),
    exportAppUser: (appId, deviceId) => send('POST', `${app(appId)}/app-users/${enc(deviceId)}/export`, {}),
    // After the screen's confirmation.
    purgeAppUser: (appId, deviceId) => send('POST', `${app(appId)}/app-users/${enc(deviceId)}/purge`, { confirm: true }),
    tokensPage: (query) => sendPage(`${base}/tokens`, query),
    // The token is in this answer only.
    createToken: (body) => send('POST', `${base}/tokens`, body),
    deleteToken: (tokenId) => send('DELETE', `${base}/tokens/${enc(tokenId)}`),
    listReports: () => send('GET', `${base}/reports`),
    saveReport: (reportId, body) => (reportId ? send('PUT', `${base}/reports/${enc(reportId)}`, body) : send('POST', `${base}/reports`, body)),
    setReportEnabled: (reportId, enabled) => send('PUT', `${base}/reports/${enc(reportId)}/status`, { enabled }),
    deleteReport: (reportId) => send('DELETE', `${base}/reports/${enc(reportId)}`),
    previewReport: (reportId) => send('GET', `${base}/reports/${enc(reportId)}/preview`),
    // "Send now": mailed at once to the report's addresses and recorded in the jobs list.
    sendReport: (reportId) => send('POST', `${base}/reports/${enc(reportId)}/send`, {}),
  };
}
