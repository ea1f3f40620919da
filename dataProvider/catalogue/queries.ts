import { skipToken, useQuery } from '@tanstack/react-query';
import { ONE_SHOT } from '../queries';
import { getCompanyPlans, getConfigurables } from './index';

/** Query keys of the plan catalogue. */
export const catalogueKeys = {
  configurables: (providerCode: string) => ['catalogue', 'configurables', providerCode] as const,
  companyPlans: (companyId: string) => ['catalogue', 'plans', companyId] as const,
};

/** The signed-in form's configurables (the browser caches the answer too: the route sends cache headers). */
export function useConfigurables(providerCode: string) {
  return useQuery({ queryKey: catalogueKeys.configurables(providerCode), queryFn: () => getConfigurables(providerCode), staleTime: 60_000, ...ONE_SHOT });
}

/** The plans a company may order; waits while no company is chosen. */
export function useCompanyPlans(companyId: string | null) {
  return useQuery({ queryKey: catalogueKeys.companyPlans(companyId ?? ''), queryFn: companyId ? () => getCompanyPlans(companyId) : skipToken, staleTime: 60_000, ...ONE_SHOT });
}
