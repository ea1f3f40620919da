import { skipToken, useQuery } from '@tanstack/react-query';
import { TIMINGS } from '../src/domain/constants';
import type { PastDueDeployment } from '../src/domain/orders/schemas';
import { companiesApi } from './companies';
import { ordersApi } from './orders';
import { ONE_SHOT } from './queries';

// The hooks of dataProvider/orders.ts, apart: the get-started wizard (front door) uses ordersApi,
// and the query library would join its first load.
/** Query keys of this area, under the company's: a change to the company refreshes its billing too. */
export const billingKeys = {
  billing: (companyId: string) => ['companies', companyId, 'billing'] as const,
  pastDue: (companyId: string) => ['companies', companyId, 'pastDue'] as const,
};

/** GET /companies/{id}/billing: subscriptions, transactions, card and what is past due, refreshed every minute (SPEC §9). */
export function useCompanyBilling(companyId: string | null | undefined) {
  return useQuery({
    queryKey: companyId ? billingKeys.billing(companyId) : ['companies', null, 'billing'],
    queryFn: companyId ? () => ordersApi.billing(companyId) : skipToken,
    refetchInterval: TIMINGS.billingRefreshMs,
    ...ONE_SHOT,
  });
}

/** The company's past-due servers, for its admins only: viewers cannot update the card. */
async function loadPastDue(companyId: string): Promise<PastDueDeployment[]> {
  const servers = await ordersApi.pastDue(companyId);
  // Most checks find nothing; only then is the member's role worth asking for.
  if (servers.length === 0) return servers;
  const company = await companiesApi.get(companyId);
  return company.role === 'admin' ? servers : [];
}

/** The past-due check under the navbar (issue 13): on entering and every few minutes. */
export function usePastDue(companyId: string | null | undefined) {
  return useQuery({
    queryKey: companyId ? billingKeys.pastDue(companyId) : ['companies', null, 'pastDue'],
    queryFn: companyId ? () => loadPastDue(companyId) : skipToken,
    refetchInterval: TIMINGS.pastDueCheckMs,
    ...ONE_SHOT,
  });
}
