import type { DeploymentDto } from '../../src/domain/deployments/schemas';
import { IDEMPOTENCY_HEADER } from '../../src/domain/idempotency';
import type { CreateDeploymentBody, DeploymentOrderAnswer, OrderChange, OrderReview, PastDueDeployment, SubscriptionDto } from '../../src/domain/orders/schemas';
import type { CardCheckoutAnswer, CardSummary, CheckoutSummary, CompanyBilling, PaymentsClientConfig } from '../../src/domain/payments/schemas';
import { API_BASE, apiFetch } from '../httpClient';

export type { CheckoutSummary, DeploymentDto };

/** A card as the stand-in's forms send it. */
export type CardBody = { cardNumber: string; expiry: string; cvc: string; cardholderName?: string };

const json = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({ method, body: JSON.stringify(body), headers });

/** Typed calls for ordering and paying (SPEC §7 Deployments and plans); the wizard's one seam. */
export const ordersApi = {
  /** POST /deployments with the key of this submission attempt: a retry reuses it, so one server is made. */
  create: async (body: CreateDeploymentBody, idempotencyKey: string) =>
    (await apiFetch<DeploymentOrderAnswer>('/deployments?addProvisionSummary=1', json('POST', body, { [IDEMPOTENCY_HEADER]: idempotencyKey }))).payload,
  update: async (id: string, change: OrderChange) => (await apiFetch<DeploymentOrderAnswer>(`/deployments/${encodeURIComponent(id)}?addProvisionSummary=1`, json('PUT', change))).payload,
  review: async (id: string, change: OrderChange) => (await apiFetch<OrderReview>('/deployments/generate-review', json('POST', { ...change, _id: id }))).payload,
  list: async (company: string, project?: string | null) => {
    const query = new URLSearchParams({ company, ...(project ? { project } : {}) });
    return (await apiFetch<DeploymentDto[]>(`/deployments?${query.toString()}`)).payload;
  },
  get: async (id: string) => (await apiFetch<DeploymentDto>(`/deployments/${encodeURIComponent(id)}/populated`)).payload,
  paymentsConfig: async () => (await apiFetch<PaymentsClientConfig>('/payments/config')).payload,
  checkout: async (deploymentId: string) => (await apiFetch<CheckoutSummary>(`/payments/checkout/${encodeURIComponent(deploymentId)}`)).payload,
  /** The local stand-in's card payment (no Paddle configured). */
  payStandIn: async (deploymentId: string, card: CardBody) =>
    (await apiFetch<{ status: 'completed'; subscription: SubscriptionDto }>(`/payments/checkout/${encodeURIComponent(deploymentId)}/pay`, json('POST', card))).payload,
  /** The stand-in's payment with the company's card on file (it stays on file as it is). */
  payWithCardOnFile: async (deploymentId: string) =>
    (await apiFetch<{ status: 'completed'; subscription: SubscriptionDto }>(`/payments/checkout/${encodeURIComponent(deploymentId)}/pay-with-card-on-file`, json('POST', {}))).payload,
  /** A company's subscriptions, transactions, card on file and past-due state (admins only). */
  billing: async (companyId: string) => (await apiFetch<CompanyBilling>(`/companies/${encodeURIComponent(companyId)}/billing`)).payload,
  /** "Update card" with Paddle: the card-update transaction its checkout opens. */
  cardCheckout: async (companyId: string) => (await apiFetch<CardCheckoutAnswer>(`/companies/${encodeURIComponent(companyId)}/billing/card/checkout`, json('POST', {}))).payload,
  /** "Update card": a new card on file for the company (stand-in). */
  updateCard: async (companyId: string, card: CardBody) =>
    (await apiFetch<{ card: CardSummary }>(`/companies/${encodeURIComponent(companyId)}/billing/card`, json('POST', card))).payload,
  /** Where a transaction's receipt opens (a printable page): a link the browser follows with its cookie. */
  receiptUrl: (companyId: string, transactionId: string) => `${API_BASE}/companies/${encodeURIComponent(companyId)}/transactions/${encodeURIComponent(transactionId)}/receipt`,
  /** Where a transaction's invoice opens (a page, or Paddle's PDF): a link the browser follows with its cookie. */
  invoiceUrl: (companyId: string, transactionId: string) => `${API_BASE}/companies/${encodeURIComponent(companyId)}/transactions/${encodeURIComponent(transactionId)}/invoice`,
  /** The company's servers whose payment is past due. */
  pastDue: async (companyId: string) => (await apiFetch<PastDueDeployment[]>(`/deployments/pastdue/${encodeURIComponent(companyId)}`)).payload,
};

/** Links a screen may render (the browser follows them with its cookie): no call is made here. */
export const billingLinks = { receiptUrl: ordersApi.receiptUrl, invoiceUrl: ordersApi.invoiceUrl };
