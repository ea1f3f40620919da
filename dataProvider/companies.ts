import type { CompanyDto, CreateCompanyBody, InvitationBody, InvitedSignUpBody, TeamDto } from '../src/domain/schemas/companies';
import { apiFetch } from './httpClient';

/** Typed company calls (SPEC §7 Companies). */
const send = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
  (await apiFetch<T>(path, { method, body: body === undefined ? undefined : JSON.stringify(body) })).payload;

export const companiesApi = {
  create: (body: CreateCompanyBody, options: { onboarding?: boolean; designation?: string } = {}) => {
    const query = new URLSearchParams();
    if (options.onboarding) query.set('onboarding', '1');
    if (options.designation) query.set('designation', options.designation);
    return send<CompanyDto>('POST', `/companies${query.size ? `?${query}` : ''}`, body);
  },
  get: (id: string) => send<CompanyDto>('GET', `/companies/${encodeURIComponent(id)}`),
  team: (id: string) => send<TeamDto>('GET', `/companies/${encodeURIComponent(id)}/users`),
  invite: (id: string, body: InvitationBody) => send<null>('POST', `/companies/${encodeURIComponent(id)}/invitations`, body),
  checkInvited: (token: string) => send<{ email: string; companyName: string; role: string; existingUser: boolean }>('POST', '/companies/users/check-invited', { token }),
  acceptInvitation: (body: InvitedSignUpBody) => send<null>('POST', '/companies/users/invited', body),
};
