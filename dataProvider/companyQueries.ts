import { skipToken, useQuery } from '@tanstack/react-query';
import { companiesApi } from './companies';
import { ONE_SHOT } from './queries';

// The hooks of dataProvider/companies.ts, apart: the front door's company step uses companiesApi,
// and the query library would take its route over the 170 kB first-load budget.
/** Query keys of this area: `companyKeys.one(id)` covers the company and its members. */
export const companyKeys = {
  all: ['companies'] as const,
  one: (id: string) => ['companies', id] as const,
  members: (id: string) => ['companies', id, 'members'] as const,
};

/** Options a screen may add: `refetchInterval` keeps a management page fresh (SPEC §9). */
interface CompanyQueryOptions {
  refetchInterval?: number;
}

/** GET /companies/{id}: the company with the caller's role and its projects. */
export function useCompany(id: string | null | undefined, options: CompanyQueryOptions = {}) {
  return useQuery({ queryKey: id ? companyKeys.one(id) : ['companies', null], queryFn: id ? () => companiesApi.get(id) : skipToken, ...ONE_SHOT, ...options });
}

/** GET /companies/{id}/users: the members and open invitations. */
export function useCompanyMembers(id: string | null | undefined, options: CompanyQueryOptions = {}) {
  return useQuery({ queryKey: id ? companyKeys.members(id) : ['companies', null, 'members'], queryFn: id ? () => companiesApi.team(id) : skipToken, ...ONE_SHOT, ...options });
}
