import type { ConfigurablesDto, PlanDto } from '../../src/domain/plans/schemas';
import type { PricingAnswer, PricingRequest } from '../../src/domain/pricing/schemas';
import { apiFetch } from '../httpClient';

export type { ConfigurablesDto, PlanDto, PricingAnswer };

/** Typed calls for the plan catalogue (SPEC §7 deployments and plans). */
export async function getPublicPlans(): Promise<PlanDto[]> {
  return (await apiFetch<PlanDto[]>('/plans/public')).payload;
}

/** GET /plangroups/company/{company}/plans: the plans a company may order (its plan group's, else the public ones). */
export async function getCompanyPlans(companyId: string): Promise<PlanDto[]> {
  return (await apiFetch<PlanDto[]>(`/plangroups/company/${encodeURIComponent(companyId)}/plans`)).payload;
}

export async function getPublicConfigurables(providerCode: string): Promise<ConfigurablesDto> {
  return (await apiFetch<ConfigurablesDto>(`/plans/configurables/public/${encodeURIComponent(providerCode)}`)).payload;
}

export async function getPricing(order: PricingRequest): Promise<PricingAnswer> {
  return (await apiFetch<PricingAnswer>('/deployments/pricing', { method: 'POST', body: JSON.stringify(order) })).payload;
}

/** GET /plans/configurables?providerCode: the signed-in form (SPEC §4 Loading data). */
export async function getConfigurables(providerCode: string): Promise<ConfigurablesDto> {
  return (await apiFetch<ConfigurablesDto>(`/plans/configurables?${new URLSearchParams({ providerCode }).toString()}`)).payload;
}
