import type { ProjectBody, ProjectDto } from '../../src/domain/projects/schemas';
import { apiFetch } from '../httpClient';

/** Typed calls of Management › Project (`/companies/{id}/projects`). */
const send = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
  (await apiFetch<T>(path, { method, body: body === undefined ? undefined : JSON.stringify(body) })).payload;

const base = (companyId: string) => `/companies/${encodeURIComponent(companyId)}/projects`;

export const projectsApi = {
  list: (companyId: string) => send<ProjectDto[]>('GET', base(companyId)),
  create: (companyId: string, body: ProjectBody) => send<ProjectDto>('POST', base(companyId), body),
  rename: (companyId: string, projectId: string, body: ProjectBody) => send<ProjectDto>('PUT', `${base(companyId)}/${encodeURIComponent(projectId)}`, body),
  remove: (companyId: string, projectId: string) => send<null>('DELETE', `${base(companyId)}/${encodeURIComponent(projectId)}`),
};
