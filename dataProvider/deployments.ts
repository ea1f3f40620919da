import {
  productSlug,
  type BackupDto,
  type ByCompanyAnswer,
  type DeploymentActionAnswer,
  type DeploymentPopulated,
  type DeploymentView,
  type RestoreBody,
  type ServerSignInAnswer,
  type UpdateDomainBody,
} from '../src/domain/deployments/schemas';
import type { DeploymentTimeline } from '../src/domain/deployments/tasks';
import { apiFetch } from './httpClient';

export type { BackupDto, DeploymentActionAnswer, DeploymentPopulated, DeploymentTimeline, DeploymentView };

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
