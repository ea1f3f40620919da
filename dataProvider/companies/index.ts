import type { CreateCompanyBody, InvitationBody, InvitedSignUpBody } from '../../src/domain/companies/schemas';
import type { CompanyDto, TeamDto } from '../../src/domain/companies/answers';
import { apiFetch } from '../httpClient';

/** Typed company calls (SPEC §7 Companies). */
const send = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
  (await apiFetch<T>(path, { method, body: body === undefined ? undefined : JSON.stringify(body) })).payload;

/** Checking an invitation link (SPEC §7: POST with the token); the first screen sends it too. */
export const CHECK_INVITED_PATH = '/companies/users/check-invited';

const companyPath = (id: string) => `/companies/${encodeURIComponent(id)}`;

export interface CompanyUpdate {
  name: string;
  size?: CreateCompanyBody['size'];
  /** ISO country code; '' clears it. */
  billingCountry?: string;
  /** VAT/tax id on invoices; '' clears it. */
  taxId?: string;
  /** The billing address on invoices: street lines (one a line), postal code, city; '' clears each. */
  billingAddress?: string;
  billingPostalCode?: string;
  billingCity?: string;
  /** A new logo to upload, or null to remove the current one; leave out to keep it. */
  logo?: File | null;
}

export const companiesApi = {
  create: (body: CreateCompanyBody, options: { onboarding?: boolean; designation?: string } = {}) => {
    const query = new URLSearchParams();
    if (options.onboarding) query.set('onboarding', '1');
    if (options.designation) query.set('designation', options.designation);
    return send<CompanyDto>('POST', `/companies${query.size ? `?${query}` : ''}`, body);
  },
  get: (id: string) => send<CompanyDto>('GET', companyPath(id)),
  /** PUT /companies/{id}: multipart with the logo file when one is uploaded, JSON otherwise. */
  update: async (id: string, update: CompanyUpdate): Promise<CompanyDto> => {
    const fields: Record<string, string> = { name: update.name };
    if (update.size) fields.size = update.size;
    if (update.billingCountry !== undefined) fields.billingCountry = update.billingCountry;
    if (update.taxId !== undefined) fields.taxId = update.taxId;
    for (const key of ['billingAddress', 'billingPostalCode', 'billingCity'] as const) {
      const value = update[key];
      if (value !== undefined) fields[key] = value;
    }
    if (update.logo) {
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) form.set(key, value);
      form.set('uploadLogo', update.logo);
      return (await apiFetch<CompanyDto>(companyPath(id), { method: 'PUT', body: form })).payload;
    }
    return send<CompanyDto>('PUT', companyPath(id), { ...fields, removeLogo: update.logo === null });
  },
  /** Without a code the server mails a 5-digit code (202); with it, the company is deleted. */
  requestDeletionCode: (id: string) => send<{ codeSent: true }>('DELETE', companyPath(id), {}),
  remove: (id: string, verificationCode: string) => send<{ deleted: true }>('DELETE', companyPath(id), { verificationCode }),
  team: (id: string) => send<TeamDto>('GET', `${companyPath(id)}/users`),
  invite: (id: string, body: InvitationBody) => send<null>('POST', `${companyPath(id)}/invitations`, body),
  removeMember: (id: string, userId: string) => send<null>('DELETE', `${companyPath(id)}/users/${encodeURIComponent(userId)}`),
  cancelInvitation: (id: string, invitationId: string) => send<null>('DELETE', `${companyPath(id)}/invitations/${encodeURIComponent(invitationId)}`),
  /** `fetchImpl`: a reply to the same request already sent (the first screen's, portal/auth/invitationFirstScreen.ts). */
  checkInvited: async (token: string, fetchImpl?: typeof fetch) =>
    (await apiFetch<{ email: string; companyName: string; role: string; existingUser: boolean }>(CHECK_INVITED_PATH, { method: 'POST', body: JSON.stringify({ token }) }, fetchImpl)).payload,
  acceptInvitation: (body: InvitedSignUpBody) => send<null>('POST', '/companies/users/invited', body),
  /** A browser signed in as the invited account joins with the token alone. */
  joinInvitation: (token: string) => send<null>('POST', '/companies/users/invited', { token }),
};

