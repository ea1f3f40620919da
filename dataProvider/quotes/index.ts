import type { ApproveQuoteAnswer, QuoteDto, QuoteOrder } from '../../src/domain/billing/quotes';
import { API_BASE, apiFetch } from '../httpClient';

const json = (method: string, body: unknown): RequestInit => ({ method, body: JSON.stringify(body) });

/** Quotes: prepared from the wizard, approved or declined under Billing. */
export const quotesApi = {
  send: async (companyId: string, order: QuoteOrder) => (await apiFetch<QuoteDto>(`/companies/${encodeURIComponent(companyId)}/quotes`, json('POST', order))).payload,
  list: async (companyId: string) => (await apiFetch<QuoteDto[]>(`/companies/${encodeURIComponent(companyId)}/quotes`)).payload,
  get: async (id: string) => (await apiFetch<QuoteDto>(`/quotes/${encodeURIComponent(id)}`)).payload,
  approve: async (id: string) => (await apiFetch<ApproveQuoteAnswer>(`/quotes/${encodeURIComponent(id)}/approve`, json('POST', {}))).payload,
  decline: async (id: string, reason: string) => (await apiFetch<QuoteDto>(`/quotes/${encodeURIComponent(id)}/decline`, json('POST', { reason }))).payload,
};

/** The printable quote: a page the browser opens with its cookie ("Download PDF" prints it). */
export const quoteLinks = { documentUrl: (id: string) => `${API_BASE}/quotes/${encodeURIComponent(id)}/document` };
