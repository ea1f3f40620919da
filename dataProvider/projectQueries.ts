import { useQuery } from '@tanstack/react-query';
import { TIMINGS } from '../src/domain/constants';
import { projectsApi } from './projects';
import { ONE_SHOT } from './queries';

// Beside projects.ts, like every area's hooks over its calls: the hooks call `projectsApi` as
// imported, so one mock of the calls stands for both in a screen's tests.
/** Query keys of this area, under the company's. */
export const projectKeys = {
  list: (companyId: string) => ['companies', companyId, 'projects'] as const,
};

/** GET /companies/{id}/projects, refreshed like the rest of the company's data (SPEC §9). */
export function useProjects(companyId: string) {
  return useQuery({ queryKey: projectKeys.list(companyId), queryFn: () => projectsApi.list(companyId), refetchInterval: TIMINGS.companyRefreshMs, ...ONE_SHOT });
}
