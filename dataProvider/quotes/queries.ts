import { skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QuoteOrder } from '../../src/domain/billing/quotes';
import { ONE_SHOT } from '../queries';
import { quotesApi } from '.';

/** Query keys of quotes: a company's list sits under the company's key, a quote under its own. */
export const quoteKeys = {
  list: (companyId: string) => ['companies', companyId, 'quotes'] as const,
  one: (id: string) => ['quotes', id] as const,
};

export function useQuotes(companyId: string | null | undefined) {
  return useQuery({ queryKey: companyId ? quoteKeys.list(companyId) : ['companies', null, 'quotes'], queryFn: companyId ? () => quotesApi.list(companyId) : skipToken, ...ONE_SHOT });
}

export function useQuote(id: string | undefined) {
  return useQuery({ queryKey: id ? quoteKeys.one(id) : ['quotes', null], queryFn: id ? () => quotesApi.get(id) : skipToken, ...ONE_SHOT });
}

export function useSendQuote(companyId: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (order: QuoteOrder) => quotesApi.send(companyId, order), onSuccess: () => client.invalidateQueries({ queryKey: quoteKeys.list(companyId) }) });
}

/** Approve or decline: the quote and its company's list are read again either way. */
export function useDecideQuote(id: string, companyId: string | undefined) {
  const client = useQueryClient();
  const settled = () => Promise.all([client.invalidateQueries({ queryKey: quoteKeys.one(id) }), companyId ? client.invalidateQueries({ queryKey: quoteKeys.list(companyId) }) : null]);
  return {
    approve: useMutation({ mutationFn: () => quotesApi.approve(id), onSettled: settled }),
    decline: useMutation({ mutationFn: (reason: string) => quotesApi.decline(id, reason), onSettled: settled }),
  };
}
