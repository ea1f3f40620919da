// Billing: subscriptions, discount codes and their uses, transactions, payment notifications, MAU history.
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, numeric, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { PAYMENT_PROVIDERS } from '../../../src/domain/constants';
import { SUBSCRIPTION_STATUSES, type PendingPlanChange, type SubscriptionQuote } from '../../../src/domain/orders/schemas';
import type { MauForecast } from '../../../src/domain/usage/forecast';
import type { MauAlert } from '../../../src/domain/usage/mauRule';
import type { CardSummary, ReceiptData, ScheduledChange } from '../../../src/domain/payments/schemas';
import type { CreditNoteDocument, DocumentSeries, InvoiceDocument } from '../../../src/domain/payments/invoice';
import { QUOTE_STATUSES, type QuoteDocument, type QuoteOrder } from '../../../src/domain/billing/quotes';
import { id, createdAt, updatedAt } from './columns';
import { billingCycleEnum } from './catalogue';
import { companies, users } from './accounts';
import { deployments } from './servers';

export const paymentVendorEnum = pgEnum('payment_vendor', PAYMENT_PROVIDERS);
export const subscriptionStatusEnum = pgEnum('subscription_status', SUBSCRIPTION_STATUSES);

export const discountKindEnum = pgEnum('discount_kind', ['percent', 'fixed']);

/** Discount codes: a percent or a fixed amount off, optionally expiring and limited in uses. */
export const discountCodes = pgTable('discount_codes', {
  id: id(),
  code: text('code').notNull().unique(),
  kind: discountKindEnum('kind').notNull(),
  /** Percent (0–100) for 'percent', cents for 'fixed'. */
  value: integer('value').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  maxUses: integer('max_uses'),
  uses: integer('uses').notNull().default(0),
  createdAt: createdAt(),
});

/**
 * One subscription per server: what it pays (the quote at order or last change, in decimal
 * strings) and its state at the payment vendor. Paddle's webhooks move it; `lastEventAt` is the
 * occurred_at of the last event applied, so an older event delivered late never moves it back.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: id(),
    deploymentId: uuid('deployment_id')
      .notNull()
      .unique()
      .references(() => deployments.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    vendor: paymentVendorEnum('vendor').notNull(),
    vendorSubscriptionId: text('vendor_subscription_id').unique(),
    vendorCustomerId: text('vendor_customer_id'),
    status: subscriptionStatusEnum('status').notNull(),
    cycle: billingCycleEnum('cycle').notNull(),
    /** The price per cycle and its lines, as the engine priced them (SubscriptionQuote). */
    quote: jsonb('quote').$type<SubscriptionQuote>().notNull(),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    nextBilledAt: timestamp('next_billed_at', { withTimezone: true }),
    /** Paddle's scheduled_change (a pause or cancellation at the period end), or null. */
    scheduledChange: jsonb('scheduled_change').$type<ScheduledChange | null>(),
    pastDueSince: timestamp('past_due_since', { withTimezone: true }),
    /** The card of the last completed payment, for the billing page (never the number). */
    card: jsonb('card').$type<CardSummary | null>(),
    lastEventAt: timestamp('last_event_at', { withTimezone: true }),
    /**
     * The vendor transaction our checkout opened for the payment due (Paddle's, or the stand-in's):
     * notifications are matched by it, and the checkout reuses it instead of opening another.
     */
    checkoutTransactionId: text('checkout_transaction_id').unique(),
    /** A free server's change to a paid plan, applied to the server only once its payment is confirmed. */
    pendingChange: jsonb('pending_change').$type<PendingPlanChange | null>(),
    /** Reminder mails sent for an order never paid (PENDING_ORDER_REMINDER_DAYS), so each goes once. */
    pendingRemindersSent: integer('pending_reminders_sent').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('subscriptions_company_status').on(t.companyId, t.status)],
);

/** A discount code counted for a subscription: once each, whatever plan changes follow. */
export const discountUses = pgTable(
  'discount_uses',
  {
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.code] })],
);

/** What was charged (Paddle's completed transactions): amounts are decimal strings. */
export const transactions = pgTable(
  'transactions',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    deploymentId: uuid('deployment_id').references(() => deployments.id, { onDelete: 'set null' }),
    vendorTransactionId: text('vendor_transaction_id').notNull().unique(),
    invoiceNumber: text('invoice_number'),
    status: text('status').notNull(),
    origin: text('origin'),
    currency: text('currency').notNull(),
    subtotal: numeric('subtotal', { precision: 14, scale: 2 }).notNull(),
    discount: numeric('discount', { precision: 14, scale: 2 }).notNull(),
    tax: numeric('tax', { precision: 14, scale: 2 }).notNull(),
    total: numeric('total', { precision: 14, scale: 2 }).notNull(),
    billedAt: timestamp('billed_at', { withTimezone: true }).notNull(),
    /** Lines, customer email and card summary: what the receipt shows. */
    receipt: jsonb('receipt').$type<ReceiptData>().notNull(),
    /**
     * The invoice as issued (buyer, seller, lines, rate, tax), frozen when the payment is recorded and
     * the only source the invoice page renders from; null only on rows recorded before freezing existed
     * (frozen at their first reading). Once set, a trigger refuses any change to it or to the number.
     */
    invoice: jsonb('invoice').$type<InvoiceDocument>(),
    createdAt: createdAt(),
  },
  (t) => [index('transactions_company_billed').on(t.companyId, t.billedAt), uniqueIndex('transactions_invoice_number').on(t.invoiceNumber)],
);

/**
 * Gapless document numbers: one row per series, incremented (row locked) in the transaction that
 * issues the document, so a rolled-back payment gives its number back and none is ever reused.
 * A PostgreSQL sequence would not do: it skips the values of rolled-back transactions.
 */
export const documentCounters = pgTable('document_counters', {
  series: text('series').$type<DocumentSeries>().primaryKey(),
  lastNumber: integer('last_number').notNull(),
});

/** A correction of an issued invoice: a document of its own, numbered from its own series, frozen like the invoice. */
export const creditNotes = pgTable(
  'credit_notes',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    number: text('number').notNull().unique(),
    total: numeric('total', { precision: 14, scale: 2 }).notNull(),
    document: jsonb('document').$type<CreditNoteDocument>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('credit_notes_transaction').on(t.transactionId)],
);

/** Every verified Paddle notification, stored once (event_id) before it is applied. */
export const paymentEvents = pgTable('payment_events', {
  id: id(),
  eventId: text('event_id').notNull().unique(),
  eventType: text('event_type').notNull(),
  occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
  payload: jsonb('payload').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  processedAt: timestamp('processed_at', { withTimezone: true }),
  /** applied, stale (older than the state it would move), unmatched (no subscription of ours) or ignored. */
  outcome: text('outcome'),
});

/** SPEC §3 mau history: one row per server and month, updated by the sampling job. */
// Here rather than in servers.ts: it references subscriptions, and this file imports servers.ts.
export const mauHistory = pgTable(
  'mau_history',
  {
    id: id(),
    deploymentId: uuid('deployment_id')
      .notNull()
      .references(() => deployments.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    used: integer('used').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    sampledAt: timestamp('sampled_at', { withTimezone: true }).notNull().defaultNow(),
    /** The MAU alerts (dueMauAlerts) already dealt with this month, so each goes once. */
    alertsSent: text('alerts_sent').array().$type<MauAlert[]>().notNull().default(sql`'{}'::text[]`),
    /** The forecast made with the latest sample (forecastMau), null before the first. */
    forecast: jsonb('forecast').$type<MauForecast>(),
  },
  (t) => [uniqueIndex('mau_history_deployment_month').on(t.deploymentId, t.startsAt)],
);

/** The month's distinct devices at each UTC day's last sampling: the forecast's trend and shape. */
export const mauDailySamples = pgTable(
  'mau_daily_samples',
  {
    deploymentId: uuid('deployment_id')
      .notNull()
      .references(() => deployments.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    used: integer('used').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deploymentId, t.day] })],
);

export const quoteStatusEnum = pgEnum('quote_status', QUOTE_STATUSES);

/**
 * Quotes: an order prepared by someone who may order, frozen with its priced lines and document for
 * the company's billing people. Approving it orders the server at the frozen price (`deploymentId`,
 * unique: one quote, one server); it can't be approved once declined or past `expiresAt`.
 */
export const quotes = pgTable(
  'quotes',
  {
    id: id(),
    number: text('number').notNull().unique(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    preparedBy: uuid('prepared_by').references(() => users.id, { onDelete: 'set null' }),
    order: jsonb('order').$type<QuoteOrder>().notNull(),
    quote: jsonb('quote').$type<SubscriptionQuote>().notNull(),
    document: jsonb('document').$type<QuoteDocument>().notNull(),
    status: quoteStatusEnum('status').notNull().default('open'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    declineReason: text('decline_reason'),
    deploymentId: uuid('deployment_id')
      .unique()
      .references(() => deployments.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('quotes_company_created').on(t.companyId, t.createdAt)],
);
