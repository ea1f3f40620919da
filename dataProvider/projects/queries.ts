import { useQuery } from '@tanstack/react-query';
import { TIMINGS } from '../../src/domain/constants';
import type { ProjectBody } from '../../src/domain/projects/schemas';
import { useAreaMutation } from '../mutations';
import { projectsApi } from './index';
import { ONE_SHOT } from '../queries';

// Beside the calls (index.ts), like every area's hooks: the hooks call `projectsApi` as
// imported, so one mock of the calls stands for both in a screen's tests.
/** Query keys of this area, under the company's. */
export const projectKeys = {
  list: (companyId: string) => ['companies', companyId, 'projects'] as const,
};

/** GET /companies/{id}/projects, refreshed like the rest of the company's data (SPEC §9). */
export function useProjects(companyId: string) {
  return useQuery({ queryKey: projectKeys.list(companyId), queryFn: () => projectsApi.list(companyId), refetchInterval: TIMINGS.companyRefreshMs, ...ONE_SHOT });
}

/** Create, rename or delete a project; the company's list is read again. */
export const useCreateProject = (companyId: string) => useAreaMutation((body: ProjectBody) => projectsApi.create(companyId, body), () => [projectKeys.list(companyId)]);
export const useRenameProject = (companyId: string) => useAreaMutation(({ projectId, body }: { projectId: string; body: ProjectBody }) => projectsApi.rename(companyId, projectId, body), () => [projectKeys.list(companyId)]);
export const useDeleteProject = (companyId: string) => useAreaMutation((projectId: string) => projectsApi.remove(companyId, projectId), () => [projectKeys.list(companyId)]);
