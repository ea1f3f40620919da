import { skipToken, useQuery } from '@tanstack/react-query';
import type { InvitationBody } from '../../src/domain/companies/schemas';
import { useAreaMutation } from '../mutations';
import { companiesApi, type CompanyUpdate } from './index';
import { ONE_SHOT } from '../queries';

// The hooks of dataProvider/companies, apart from its calls: the front door's company step uses companiesApi,
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

/** Team › remove a member; the team is read again. */
export const useRemoveMember = (companyId: string) => useAreaMutation((userId: string) => companiesApi.removeMember(companyId, userId), () => [companyKeys.members(companyId)]);
/** Team › cancel an invitation; the team is read again. */
export const useCancelInvitation = (companyId: string) => useAreaMutation((invitationId: string) => companiesApi.cancelInvitation(companyId, invitationId), () => [companyKeys.members(companyId)]);
/** Team › invite by email; the team is read again. */
export const useInvite = (companyId: string) => useAreaMutation((body: InvitationBody) => companiesApi.invite(companyId, body), () => [companyKeys.members(companyId)]);
/** Company settings › save (with the logo); the company is read again. */
export const useUpdateCompany = (companyId: string) => useAreaMutation((update: CompanyUpdate) => companiesApi.update(companyId, update), () => [companyKeys.one(companyId)]);
/** Danger zone › the code by mail, then the deletion with it. */
export const useRequestDeletionCode = (companyId: string) => useAreaMutation((_: null) => companiesApi.requestDeletionCode(companyId));
// Nothing is read again: the session's fresh company list moves the screen away.
export const useDeleteCompany = (companyId: string) => useAreaMutation((verificationCode: string) => companiesApi.remove(companyId, verificationCode));
