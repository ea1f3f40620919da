import { skipToken, useQuery } from '@tanstack/react-query';
import { TIMINGS } from '../src/domain/constants';
import { ordersApi } from './orders';
import { ONE_SHOT } from './queries';

// The hooks of dataProvider/orders.ts, apart: the get-started wizard (front door) uses ordersApi,
// and the query library would join its first load.
/** Query keys of this area, under the company's: a change to the company refreshes its billing too. */
export const billingKeys = {
  billing: (companyId: string) => ['companies', companyId, 'billing'] as const,
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
