import { z } from 'zod';
import { AUDIT_TARGET_TYPES } from '../audit';
import { COMPANY_ROLES } from '../companies/schemas';
import { BILLING_CYCLES } from '../constants';
import { DEPLOYMENT_STATUSES, SUBSCRIPTION_STATUSES } from '../orders/schemas';

/**
 * The admin area's wire contracts: rows of the lists, the detail pages and the bodies
 * of the actions. The server declares them on its routes; the admin screens use their types.
 */

export const idParamsSchema = z.object({ id: z.string() });

/** A date (`2026-11-23`) or an ISO date-time, as a filter bound. A plain refine: zod's ISO formats would grow the front door's shared zod chunk. */
const dateBound = z
  .string()
  .max(40)
  .refine((s) => /^\d{4}-\d{2}-\d{2}/.test(s) && !Number.isNaN(Date.parse(s)), 'validation.invalid');

// Users

export const adminUserRowSchema = z.object({
  _id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  isAdmin: z.boolean(),
  emailVerified: z.boolean(),
  locked: z.boolean(),
  createdAt: z.string(),
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;

export const adminUserDetailSchema = adminUserRowSchema.extend({
  via: z.string(),
  mfaEnabled: z.boolean(),
  companies: z.array(z.object({ _id: z.string(), name: z.string(), role: z.enum(COMPANY_ROLES) })),
  sessions: z.array(z.object({ _id: z.string(), createdAt: z.string(), lastSeenAt: z.string(), ip: z.string().nullable(), userAgent: z.string().nullable() })),
  signIns: z.array(z.object({ _id: z.string(), at: z.string(), ok: z.boolean(), ip: z.string().nullable() })),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

/** PUT /admin/users/{id}: react-admin sends the whole record; only the platform admin role changes here. */
export const adminUserUpdateSchema = z.object({ isAdmin: z.boolean() }).loose();

export const ADMIN_USER_ACTIONS = ['lock', 'unlock', 'end-sessions', 'resend-verification'] as const;
export type AdminUserAction = (typeof ADMIN_USER_ACTIONS)[number];

// Companies

export const adminCompanyRowSchema = z.object({
  _id: z.string(),
  name: z.string(),
  size: z.string().nullable(),
  createdAt: z.string(),
  members: z.number(),
  servers: z.number(),
  paidServers: z.number(),
  planGroupId: z.string().nullable(),
  planGroupName: z.string().nullable(),
});
export type AdminCompanyRow = z.infer<typeof adminCompanyRowSchema>;

/** The company list's own filters (besides the search): size, created between, paid servers. */
export const adminCompanyFilters = {
  size: z.string().max(20).optional(),
  createdFrom: dateBound.optional(),
  createdTo: dateBound.optional(),
  hasPaidServers: z.boolean().optional(),
  planGroupId: z.string().optional(),
};

/** Why the server refuses "View as" for a company (its error codes). */
export const VIEW_AS_REFUSALS = ['NO_COMPANY_ADMIN', 'CANNOT_ACT_ON_SELF'] as const;
export type ViewAsRefusal = (typeof VIEW_AS_REFUSALS)[number];

/** Who takes a subscription's payments, as the admin company page names it. */
export const PAYMENT_PROVIDER_LABELS = ['paddle', 'stand-in', 'free'] as const;
export type PaymentProviderLabel = (typeof PAYMENT_PROVIDER_LABELS)[number];

export const adminCompanyDetailSchema = adminCompanyRowSchema.extend({
  billingCountry: z.string().nullable(),
  /** Whom "View as" opens the product as, and why the server would refuse it (null: it would not). */
  viewAs: z.object({ email: z.string().nullable(), refused: z.enum(VIEW_AS_REFUSALS).nullable() }),
  people: z.array(z.object({ _id: z.string(), email: z.string(), firstName: z.string(), lastName: z.string(), role: z.enum(COMPANY_ROLES) })),
  projects: z.array(z.object({ _id: z.string(), name: z.string() })),
  /** `planName` is the plan as the customer sees it ("Growth"); `terminationScheduledAt` set while the server is being deleted. */
  deployments: z.array(
    z.object({ _id: z.string(), name: z.string(), status: z.enum(DEPLOYMENT_STATUSES), planCode: z.string(), planName: z.string(), free: z.boolean(), projectId: z.string(), terminationScheduledAt: z.string().nullable(), createdAt: z.string() }),
  ),
  /**
   * `paymentProvider` is who takes the payments as the customer meets them: Paddle, the local test
   * checkout (the stand-in records its subscriptions as Paddle's), or none for a free server.
   * `scheduledChange` is the vendor's (a cancellation at the period end), as the customer's billing reads it.
   */
  subscriptions: z.array(
    z.object({
      _id: z.string(),
      deploymentId: z.string(),
      status: z.enum(SUBSCRIPTION_STATUSES),
      cycle: z.enum(BILLING_CYCLES),
      vendor: z.string(),
      paymentProvider: z.enum(PAYMENT_PROVIDER_LABELS),
      scheduledChange: z.unknown(),
      nextBilledAt: z.string().nullable(),
      total: z.string(),
      currency: z.string(),
    }),
  ),
});
export type AdminCompanyDetail = z.infer<typeof adminCompanyDetailSchema>;

/** PUT /admin/companies/{id}: the name and the plan group (null: the public plans). */
export const adminCompanyUpdateSchema = z
  .object({
    name: z.string().trim().min(2, 'validation.nameLength').max(64, 'validation.nameLength'),
    planGroupId: z.string().nullable(),
  })
  .loose();

/** What starting a read-only view as the company's admin answers: where to go. */
export const viewAsAnswerSchema = z.object({ companyId: z.string(), projectId: z.string().nullable(), userEmail: z.string() });
export type ViewAsAnswer = z.infer<typeof viewAsAnswerSchema>;

// Audit logs

export const auditLogRowSchema = z.object({
  _id: z.string(),
  at: z.string(),
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  targetType: z.enum(AUDIT_TARGET_TYPES),
  targetId: z.string(),
  companyId: z.string().nullable(),
  /** The target and the company by name (a user by email), as they are now or as the entry recorded them; null when unknown. */
  targetName: z.string().nullable(),
  companyName: z.string().nullable(),
  ip: z.string().nullable(),
  // Objects of changed fields, or null. Declared as unknown: zod's record type would join the
  // front door's shared zod chunk (every zod feature used anywhere lands there).
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditLogRow = Omit<z.infer<typeof auditLogRowSchema>, 'before' | 'after'> & { before: Record<string, unknown> | null; after: Record<string, unknown> | null };

export const auditLogFilters = {
  targetType: z.enum(AUDIT_TARGET_TYPES).optional(),
  targetId: z.string().max(100).optional(),
  action: z.string().max(100).optional(),
  actor: z.string().max(320).optional(),
  from: dateBound.optional(),
  to: dateBound.optional(),
};

// Plan groups

export const planGroupRowSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  plans: z.number(),
  companies: z.number(),
  createdAt: z.string(),
});
export type PlanGroupRow = z.infer<typeof planGroupRowSchema>;

export const planGroupDetailSchema = planGroupRowSchema.extend({
  planIds: z.array(z.string()),
  companyIds: z.array(z.string()),
});
export type PlanGroupDetail = z.infer<typeof planGroupDetailSchema>;

export const planGroupCreateSchema = z.object({
  name: z.string().trim().min(2, 'validation.nameLength').max(64, 'validation.nameLength'),
  description: z.string().trim().max(500).default(''),
});

/** PUT /admin/plan-groups/{id}: name and description, and optionally its plans and companies. */
export const planGroupUpdateSchema = planGroupCreateSchema
  .extend({
    planIds: z.array(z.string()).max(500).optional(),
    companyIds: z.array(z.string()).max(5000).optional(),
  })
  .loose();
export type PlanGroupUpdate = z.infer<typeof planGroupUpdateSchema>;

/** The editor: the whole catalogue with the group's selection, each plan with its monthly price. */
export const planGroupEditorSchema = z.object({
  group: planGroupDetailSchema,
  plans: z.array(z.object({ _id: z.string(), name: z.string(), code: z.string(), status: z.string(), monthlyPrice: z.string(), selected: z.boolean() })),
  companies: z.array(z.object({ _id: z.string(), name: z.string() })),
});
export type PlanGroupEditor = z.infer<typeof planGroupEditorSchema>;
