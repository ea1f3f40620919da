import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ConfigurablesDto, PlanDto } from '../../src/domain/plans/schemas';
import type { CompanyRole } from '../../src/domain/constants';
import { signUpVerified } from './accounts';

/** The seeded catalogue by code, for building orders in tests. */
export async function loadCatalogue(app: FastifyInstance) {
  const plans = (await app.inject({ method: 'GET', url: '/api/v1/plans/public' })).json<{ payload: PlanDto[] }>().payload;
  const conf = (await app.inject({ method: 'GET', url: '/api/v1/plans/configurables/public/gcp' })).json<{ payload: ConfigurablesDto }>().payload;
  const find = <T extends { code: string }>(list: T[], code: string): T => {
    const item = list.find((i) => i.code === code);
    if (!item) throw new Error(`no ${code} in the catalogue`);
    return item;
  };
  return {
    plan: (code: string) => find(plans, code)._id,
    region: (code: string) => find(conf.regions, code)._id,
    feature: (code: string) => find(conf.features, code)._id,
    size: (code: string) => find(conf.sizes, code)._id,
  };
}
export type Catalogue = Awaited<ReturnType<typeof loadCatalogue>>;

export const FREE = 'v3.mau_500_gcp.base';
export const STARTER = 'v3.mau_1_000_gcp.base';
export const BASIC = 'v3.mau_5_000_gcp.base';

/** A member with a company of their own (admin) and its default project; a company needs a proved address. */
export async function companyOwner(app: FastifyInstance, email: string) {
  const { cookie } = await signUpVerified(app, email);
  const res = await app.inject({ method: 'POST', url: '/api/v1/companies', payload: { name: `Company of ${email.split('@')[0]}` }, headers: { cookie } });
  const company = res.json<{ payload: { _id: string; projects: { _id: string }[] } }>().payload;
  return { cookie, email, companyId: company._id, projectId: company.projects[0]?._id ?? '' };
}

/** Adds a signed-up user to a company with a role, as an accepted invitation would. */
export async function addMember(app: FastifyInstance, companyId: string, email: string, role: CompanyRole) {
  const { cookie } = await signUpVerified(app, email);
  await app.database.rows(`insert into company_members (company_id, user_id, role) select '${companyId}', id, '${role}' from users where email = '${email}'`);
  return cookie;
}

export function orderBody(cat: Catalogue, owner: { companyId: string; projectId: string }, overrides: Record<string, unknown> = {}) {
  const plan = (overrides.planCode as string | undefined) ?? STARTER;
  const rest: Record<string, unknown> = { ...overrides };
  delete rest.planCode;
  return {
    name: 'My Beacon Server',
    plan: cat.plan(plan),
    paymentCycle: 'month',
    planConfig: { region: cat.region('us-central1'), size: cat.size('mau_500'), features: [cat.feature('domain.default'), cat.feature('retention.6m'), cat.feature('backup.daily')] },
    paymentVendor: plan === FREE ? 'free' : 'paddle',
    company: owner.companyId,
    project: owner.projectId,
    provider: 'gcp',
    ...rest,
  };
}

/** The same order as a change of an existing server (PUT /deployments/{id}, generate-review). */
export function changeBody(cat: Catalogue, owner: { companyId: string; projectId: string }, overrides: Record<string, unknown> = {}) {
  const { company, project, provider, name, ...change } = orderBody(cat, owner, overrides);
  void [company, project, provider, name];
  return change;
}

export function postOrder(app: FastifyInstance, cookie: string, body: unknown, key: string | null = randomUUID(), query = '?addProvisionSummary=1') {
  return app.inject({ method: 'POST', url: `/api/v1/deployments${query}`, payload: body as Record<string, unknown>, headers: { cookie, ...(key === null ? {} : { 'idempotency-key': key }) } });
}

export function pay(app: FastifyInstance, cookie: string, deploymentId: string, cardNumber = '4242 4242 4242 4242', expiry = '12/39') {
  return app.inject({ method: 'POST', url: `/api/v1/payments/checkout/${deploymentId}/pay`, payload: { cardNumber, expiry, cvc: '123' }, headers: { cookie } });
}

export const count = async (app: FastifyInstance, from: string) => (await app.database.rows<{ n: number }>(`select count(*)::int as n from ${from}`))[0]?.n;
