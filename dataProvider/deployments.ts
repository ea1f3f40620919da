import { keepPreviousData, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { DeploymentStatus } from '../src/domain/orders/schemas';
import {
  productSlug,
  type BackupDownloadLink,
  type BackupDto,
  type ByCompanyAnswer,
  type DeploymentActionAnswer,
  type DeploymentPopulated,
  type DeploymentView,
  type HealthCheckDto,
  type RestoreBody,
  type ServerSignInAnswer,
  type UpdateDomainBody,
} from '../src/domain/deployments/schemas';
import type { ServerCertificate } from '../src/domain/deployments/edge';
import type { DeploymentSortField } from '../src/domain/deployments/listQuery';
import type { DeploymentTimeline } from '../src/domain/deployments/tasks';
import { listSearchParams } from '../src/domain/listQuery';
import { apiFetch } from './httpClient';
import { ONE_SHOT } from './queries';

export type { BackupDownloadLink, BackupDto, DeploymentActionAnswer, DeploymentPopulated, DeploymentTimeline, DeploymentView, HealthCheckDto, ServerCertificate };

const post = (body: unknown = {}): RequestInit => ({ method: 'POST', body: JSON.stringify(body) });
const path = (id: string, action = '') => `/deployments/${encodeURIComponent(id)}${action}`;

/** Typed calls for running servers (SPEC §7 Deployments): the dashboard's and the deployment pages' one seam. */
export const deploymentsApi = {
  /** GET /deployments?company&project: the company's servers (deleted ones left out). */
  list: async (company: string, project?: string | null) => {
    const query = new URLSearchParams({ company, ...(project ? { project } : {}) });
    return (await apiFetch<DeploymentView[]>(`/deployments?${query.toString()}`)).payload;
  },
  byCompany: async (company: string, countOnly = false) =>
    (await apiFetch<ByCompanyAnswer>(`/deployments/by-company/${encodeURIComponent(company)}${countOnly ? '?count=1' : ''}`)).payload,
  byUser: async () => (await apiFetch<DeploymentView[]>('/deployments/by-user')).payload,
  populated: async (id: string) => (await apiFetch<DeploymentPopulated>(path(id, '/populated'))).payload,
  backups: async (id: string) => (await apiFetch<BackupDto[]>(path(id, '/backups'))).payload,
  /** POST /deployments/{id}/backups: Back up now, a manual backup queued as a task (admins, a plan with backups). */
  backupNow: async (id: string) => (await apiFetch<DeploymentActionAnswer>(path(id, '/backups'), post())).payload,
  /** POST /deployments/{id}/backups/{backupId}/download: a signed link to the archive, for a while (admins). */
  backupDownloadLink: async (id: string, backupId: string) => (await apiFetch<BackupDownloadLink>(path(id, `/backups/${encodeURIComponent(backupId)}/download`), post())).payload,
  /** GET /deployments/{id}/health-checks: the last checks, newest first. */
  healthChecks: async (id: string) => (await apiFetch<HealthCheckDto[]>(path(id, '/health-checks'))).payload,
  /** GET /deployments/{id}/certificate: the certificate the TLS edge serves for the server's address. */
  certificate: async (id: string) => (await apiFetch<ServerCertificate>(path(id, '/certificate'))).payload,
  /** GET /deployments/events?_id=: every task and status change of the server. */
  events: async (id: string) => (await apiFetch<DeploymentTimeline>(`/deployments/events?_id=${encodeURIComponent(id)}`)).payload,
  /** DELETE: schedules the termination after the grace period (terminationScheduledAt in the answer). */
  remove: async (id: string) => (await apiFetch<DeploymentActionAnswer>(path(id), { method: 'DELETE' })).payload,
  cancelTermination: async (id: string) => (await apiFetch<DeploymentActionAnswer>(path(id, '/cancel-termination'))).payload,
  restore: async (id: string, body: RestoreBody = {}) => (await apiFetch<DeploymentActionAnswer>(path(id, '/restore'), post(body))).payload,
  restart: async (id: string) => (await apiFetch<DeploymentActionAnswer>(path(id, '/restart'), post())).payload,
  healthCheck: async (id: string) => (await apiFetch<DeploymentActionAnswer>(path(id, '/health-check'), post())).payload,
  /** A custom domain (null: back to the default one); removeSSL serves it without a certificate. */
  updateDomain: async (id: string, body: UpdateDomainBody, removeSSL = false) =>
    (await apiFetch<DeploymentActionAnswer>(path(id, `/update-domain${removeSSL ? '?removeSSL=true' : ''}`), post(body))).payload,
  verifyDomain: async (id: string) => (await apiFetch<DeploymentActionAnswer>(path(id, '/verify-domain'), post())).payload,
  unlockUsers: async (id: string) => (await apiFetch<DeploymentActionAnswer>(path(id, '/unlock-users'), post())).payload,
  /** GET /auth/{product}-server: a short-lived signed sign-in link to the server's dashboard. */
  serverSignIn: async (product: string, deploymentId: string, userId: string) =>
    (await apiFetch<ServerSignInAnswer>(`/auth/${productSlug(product)}-server?${new URLSearchParams({ deploymentId, userId }).toString()}`)).payload,
};

/** One page of GET /deployments (ra-data-simple-rest dialect): rows in the server's order and the total. */
export interface DeploymentPageQuery {
  company: string;
  project?: string | null;
  page: number;
  perPage: number;
  sort?: { field: DeploymentSortField; order: 'ASC' | 'DESC' };
  filter?: { q?: string; status?: DeploymentStatus };
}
export interface DeploymentPage {
  rows: DeploymentView[];
  total: number;
  /** The server counted no further than its cap: `total` is a floor. */
  bounded: boolean;
}

/** `deployments 0-24/137` (or `/10000+`): the total after the slash. */
export function totalOfContentRange(header: string | null, fallback: number): { total: number; bounded: boolean } {
  const text = header?.split('/').pop() ?? '';
  const total = Number.parseInt(text, 10);
  return Number.isNaN(total) ? { total: fallback, bounded: false } : { total, bounded: text.endsWith('+') };
}

/** The query string of one page, in the order the server's tests and mocks expect. */
export function deploymentPageSearch(query: DeploymentPageQuery): string {
  const start = (query.page - 1) * query.perPage;
  const list = listSearchParams({ range: [start, start + query.perPage - 1], sort: [query.sort?.field ?? 'createdAt', query.sort?.order ?? 'DESC'], filter: query.filter });
  const params = new URLSearchParams({ company: query.company, ...(query.project ? { project: query.project } : {}) });
  for (const [key, value] of list) params.set(key, value);
  return params.toString();
}

export async function loadDeploymentPage(query: DeploymentPageQuery): Promise<DeploymentPage> {
  const res = await apiFetch<DeploymentView[]>(`/deployments?${deploymentPageSearch(query)}`);
  return { rows: res.payload, ...totalOfContentRange(res.headers.get('content-range'), res.payload.length) };
}

/** Query keys of this area: a change to servers invalidates `deploymentKeys.all`. */
export const deploymentKeys = {
  all: ['deployments'] as const,
  page: (query: DeploymentPageQuery) => ['deployments', 'page', query] as const,
  populated: (id: string) => ['deployments', id, 'populated'] as const,
  events: (id: string) => ['deployments', id, 'events'] as const,
  backups: (id: string) => ['deployments', id, 'backups'] as const,
  healthChecks: (id: string) => ['deployments', id, 'health-checks'] as const,
  certificate: (id: string) => ['deployments', id, 'certificate'] as const,
};

/**
 * One page of the company's servers, sorted and filtered on the server; the previous page stays on
 * screen while the next loads. `pollMs` sets the pace from the rows shown (busy servers closely).
 */
export function useDeploymentsPage(query: DeploymentPageQuery | null, pollMs: (rows: DeploymentView[] | undefined) => number) {
  return useQuery({
    queryKey: query ? deploymentKeys.page(query) : ['deployments', 'page', null],
    queryFn: query ? () => loadDeploymentPage(query) : skipToken,
    placeholderData: keepPreviousData,
    refetchInterval: (q) => pollMs(q.state.data?.rows),
    ...ONE_SHOT,
  });
}

/**
 * GET /deployments/events?_id=: the server's timeline, every `pollMs` (the page polls closely while
 * a task runs). The pace is in the key: when it changes a task started or ended, and the timeline
 * is read at once, the last one staying on screen meanwhile.
 */
export function useDeploymentEvents(id: string, pollMs: number) {
  return useQuery({ queryKey: [...deploymentKeys.events(id), pollMs], queryFn: () => deploymentsApi.events(id), refetchInterval: pollMs, placeholderData: keepPreviousData, ...ONE_SHOT });
}

/** GET /deployments/{id}/backups, at the pace `pollMs` gives from the last answer (closely while a backup is in progress). */
export function useDeploymentBackups(id: string, pollMs: (backups: BackupDto[] | undefined) => number) {
  return useQuery({ queryKey: deploymentKeys.backups(id), queryFn: () => deploymentsApi.backups(id), refetchInterval: (q) => pollMs(q.state.data), ...ONE_SHOT });
}

/** GET /deployments/{id}/health-checks, every `pollMs` (closely while a task runs: a restart ends with a check). */
export function useDeploymentHealthChecks(id: string, pollMs: number) {
  return useQuery({ queryKey: deploymentKeys.healthChecks(id), queryFn: () => deploymentsApi.healthChecks(id), refetchInterval: pollMs, ...ONE_SHOT });
}

/**
 * GET /deployments/{id}/certificate, at the pace `pollMs` gives from the last answer (closely while
 * none is served yet: the edge obtains one in seconds). `address` (the name, its SSL wish and
 * verification) is in the key: a change of address is read at once.
 */
export function useDeploymentCertificate(id: string, address: string, pollMs: (certificate: ServerCertificate | undefined) => number) {
  return useQuery({ queryKey: [...deploymentKeys.certificate(id), address], queryFn: () => deploymentsApi.certificate(id), refetchInterval: (q) => pollMs(q.state.data), ...ONE_SHOT });
}

/**
 * GET /deployments/{id}/populated: one server as its page shows it, at the pace `pollMs` gives
 * from the last answer (closely while a task runs); `put` shows an action's answer at once.
 */
export function useDeploymentPopulated(id: string, pollMs: (server: DeploymentPopulated | undefined) => number) {
  const client = useQueryClient();
  const query = useQuery({ queryKey: deploymentKeys.populated(id), queryFn: () => deploymentsApi.populated(id), refetchInterval: (q) => pollMs(q.state.data), ...ONE_SHOT });
  const put = useCallback((server: DeploymentPopulated) => client.setQueryData(deploymentKeys.populated(id), server), [client, id]);
  return { ...query, put };
}

/** The server page's actions that queue a task; restore takes a backup's id (else the last one). */
type ServerActionName = 'restart' | 'healthCheck' | 'unlockUsers' | 'remove' | 'cancelTermination' | 'backupNow' | 'verifyDomain';
export type ServerAction = { action: ServerActionName } | { action: 'restore'; backupId?: string } | { action: 'updateDomain'; body: UpdateDomainBody; removeSSL?: boolean };

const runAction = (id: string, request: ServerAction): Promise<DeploymentActionAnswer> => {
  switch (request.action) {
    case 'restore':
      return deploymentsApi.restore(id, request.backupId ? { backupId: request.backupId } : {});
    case 'updateDomain':
      return deploymentsApi.updateDomain(id, request.body, request.removeSSL);
    default:
      return deploymentsApi[request.action](id);
  }
};

/**
 * A server action as a mutation: the answer (the server as it is now) goes on the page through
 * the caller's `onAnswer`, which reads the server's panels again; the lists of servers are refetched.
 */
export function useServerActionMutation(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: ServerAction) => runAction(id, request),
    onSuccess: () => client.invalidateQueries({ queryKey: ['deployments', 'page'] }),
  });
}

/** A signed link to a backup's archive, for a while (admins). */
export function useBackupDownloadLink(id: string) {
  return useMutation({ mutationFn: (backupId: string) => deploymentsApi.backupDownloadLink(id, backupId) });
}

/** A short-lived signed sign-in link to the server's own dashboard. */
export function useServerSignIn() {
  return useMutation({ mutationFn: ({ product, deploymentId, userId }: { product: string; deploymentId: string; userId: string }) => deploymentsApi.serverSignIn(product, deploymentId, userId) });
}
