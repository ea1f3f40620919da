import { z } from 'zod';
import { createDeploymentSchema, subscriptionQuoteSchema } from '../orders/schemas';

/**
 * A quote: an order someone who may order prepared, priced and frozen for the company's billing
 * people to approve and pay, or decline. It is honoured at its frozen price until it expires.
 */
export const QUOTE_TTL_DAYS = 30;
export const QUOTE_STATUSES = ['open', 'approved', 'declined'] as const;
/** What the screens show: a stored status, or `expired` for an open quote past its expiry. */
export const QUOTE_STATES = ['open', 'approved', 'declined', 'expired'] as const;
export type QuoteState = (typeof QUOTE_STATES)[number];

export function quoteState(status: (typeof QUOTE_STATUSES)[number], expiresAt: Date | string, now = new Date()): QuoteState {
  return status === 'open' && new Date(expiresAt).getTime() <= now.getTime() ? 'expired' : status;
}

/** The order a quote carries: what POST /deployments takes, less the company (the quote's own). */
export const quoteOrderSchema = createDeploymentSchema.omit({ company: true });
export type QuoteOrder = z.infer<typeof quoteOrderSchema>;

/** Where a quote opens in the signed-in app (hash route): its mail links here too. */
export const quotePagePath = (id: string) => `/management/billing/quotes/${encodeURIComponent(id)}`;

export const quoteParamsSchema = z.object({ id: z.string().max(64) });
export const declineQuoteSchema = z.object({
  reason: z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(500, 'validation.invalid'),
});
export type DeclineQuoteBody = z.infer<typeof declineQuoteSchema>;

const party = z.object({ name: z.string(), addressLines: z.array(z.string()), taxId: z.string().nullable() });
/** The quote as a document: parties, number, dates, lines, tax and total, frozen when sent. */
export const quoteDocumentSchema = z.object({
  number: z.string(),
  issuedAt: z.string(),
  expiresAt: z.string(),
  seller: party,
  buyer: party.extend({ addressLines: z.array(z.string()).optional(), country: z.string().nullable(), email: z.string().nullable() }),
  preparedBy: z.object({ name: z.string(), email: z.string() }),
  server: z.object({ name: z.string(), plan: z.string() }),
  cycle: z.enum(['month', 'year']),
  lines: z.array(z.object({ name: z.string(), amount: z.string() })),
  subtotal: z.string(),
  discount: z.string(),
  discountCode: z.string().nullable(),
  /** Percent of the buyer's billing country when the quote was sent; 0 with a reverse charge. */
  taxRate: z.number(),
  taxCountry: z.string().nullable(),
  reverseCharge: z.boolean(),
  tax: z.string(),
  total: z.string(),
  /** A yearly cycle: what twelve monthly bills of the same order would cost more, before tax. */
  yearlySaving: z.string().nullable(),
  currency: z.string(),
});
export type QuoteDocument = z.infer<typeof quoteDocumentSchema>;

export const quoteDtoSchema = z.object({
  _id: z.string(),
  number: z.string(),
  companyId: z.string(),
  state: z.enum(QUOTE_STATES),
  document: quoteDocumentSchema,
  order: quoteOrderSchema,
  /** Frozen prices the order is charged at. */
  quote: subscriptionQuoteSchema,
  createdAt: z.string(),
  expiresAt: z.string(),
  decidedAt: z.string().nullable(),
  decidedBy: z.string().nullable(),
  declineReason: z.string().nullable(),
  /** The server ordered from it once approved. */
  deploymentId: z.string().nullable(),
  /** The server's payment went through. */
  paid: z.boolean(),
});
export type QuoteDto = z.infer<typeof quoteDtoSchema>;

export const approveQuoteAnswerSchema = z.object({ deploymentId: z.string(), paymentRequired: z.boolean() });
export type ApproveQuoteAnswer = z.infer<typeof approveQuoteAnswerSchema>;
