import { may } from '../../src/domain/companies/access';
import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { TIMINGS } from '../../src/domain/constants';
import type { OrderChange, PastDueDeployment } from '../../src/domain/orders/schemas';
import { companiesApi } from '../companies';
import { useAreaMutation } from '../mutations';
import { ordersApi, type CardBody } from './index';
import { ONE_SHOT } from '../queries';

// The hooks of dataProvider/orders, apart from its calls: the get-started wizard (front door) uses ordersApi,
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

/** The company's past-due servers, for those who pay (admins and the billing role): viewers cannot update the card. */
async function loadPastDue(companyId: string): Promise<PastDueDeployment[]> {
  const servers = await ordersApi.pastDue(companyId);
  // Most checks find nothing; only then is the member's role worth asking for.
  if (servers.length === 0) return servers;
  const company = await companiesApi.get(companyId);
  return may(company.role, 'billing') ? servers : [];
}

/** The past-due check under the navbar: on entering and every few minutes. */
export function usePastDue(companyId: string | null | undefined) {
  return useQuery({
    queryKey: companyId ? billingKeys.pastDue(companyId) : ['companies', null, 'pastDue'],
    queryFn: companyId ? () => loadPastDue(companyId) : skipToken,
    refetchInterval: TIMINGS.pastDueCheckMs,
    ...ONE_SHOT,
  });
}

/** How payments run here (Paddle, the stand-in, or off), once per visit. */
export function usePaymentsConfig() {
  return useQuery({ queryKey: ['payments', 'config'], queryFn: () => ordersApi.paymentsConfig(), staleTime: Infinity, ...ONE_SHOT });
}

/**
 * "Update card" with Paddle: the card-update transaction its checkout opens, and the card on file
 * before it (to see the new one arrive). Asked once per dialog: never stale, dropped when closed.
 */
export function useCardCheckout(companyId: string) {
  return useQuery({
    queryKey: [...billingKeys.billing(companyId), 'card-checkout'],
    queryFn: async () => {
      const [checkout, billing] = await Promise.all([ordersApi.cardCheckout(companyId), ordersApi.billing(companyId)]);
      return { checkout, before: billing.card };
    },
    staleTime: Infinity,
    gcTime: 0,
    ...ONE_SHOT,
  });
}

/** The card on file, read every `pollMs` while `watching`, at most `polls` times (until Paddle's notification has put the new one on file). */
export function useCardOnFileWatch(companyId: string, watching: boolean, pollMs: number, polls: number) {
  const client = useQueryClient();
  const queryKey = [...billingKeys.billing(companyId), 'card-watch'];
  const query = useQuery({
    queryKey,
    queryFn: async () => (await ordersApi.billing(companyId)).card,
    enabled: watching,
    refetchInterval: (q) => (watching && q.state.dataUpdateCount < polls ? pollMs : false),
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  return { card: query.data, reads: client.getQueryState(queryKey)?.dataUpdateCount ?? 0 };
}

/** "Update card" (stand-in): a new card on file; the company's billing is read again. */
export const useUpdateCard = (companyId: string) => useAreaMutation((card: CardBody) => ordersApi.updateCard(companyId, card), () => [billingKeys.billing(companyId)]);

/** A server's change: its review (what it costs now), then the change itself; the server is read again. */
export const useReviewChange = () => useAreaMutation(({ id, change }: { id: string; change: OrderChange }) => ordersApi.review(id, change));
export const useChangeOrder = () => useAreaMutation(({ id, change }: { id: string; change: OrderChange }) => ordersApi.update(id, change), ({ id }) => [['deployments', id]]);

/** A server's order as the wizard edits it (plan, options, cycle), once per visit of its edit mode. */
export function useOrderedServer(id: string | undefined) {
  return useQuery({ queryKey: ['deployments', id ?? null, 'order'], queryFn: id ? () => ordersApi.get(id) : skipToken, staleTime: Infinity, gcTime: 0, ...ONE_SHOT });
}
