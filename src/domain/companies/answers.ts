import { z } from 'zod';
import { COMPANY_ROLES } from './schemas';

/**
 * What the company routes answer, and their path parameters: the server declares them on its
 * routes; the browser only needs their types, so these schemas stay out of the front-door bundles.
 */

export const companySchema = z.object({
  _id: z.string(),
  name: z.string(),
  size: z.string().nullable(),
  /** URL of the uploaded logo image, or null. */
  logo: z.string().nullable(),
  billingCountry: z.string().nullable(),
  taxId: z.string().nullable(),
  /** The billing address on invoices: street lines (newline between them), postal code, city; null when not given. */
  billingAddress: z.string().nullable(),
  billingPostalCode: z.string().nullable(),
  billingCity: z.string().nullable(),
  createdAt: z.string(),
  role: z.enum(COMPANY_ROLES),
  projects: z.array(z.object({ _id: z.string(), name: z.string() })),
});
export type CompanyDto = z.infer<typeof companySchema>;

export const teamSchema = z.object({
  users: z.array(z.object({ _id: z.string(), firstName: z.string(), lastName: z.string(), email: z.string(), role: z.enum(COMPANY_ROLES), status: z.literal('active') })),
  invitations: z.array(z.object({ _id: z.string(), email: z.string(), role: z.enum(COMPANY_ROLES), status: z.enum(['pending', 'expired']), createdAt: z.string() })),
});
export type TeamDto = z.infer<typeof teamSchema>;

/** Answer of POST /companies/users/check-invited: what the invitation page shows. */
export const invitationCheckSchema = z.object({ email: z.string(), companyName: z.string(), role: z.enum(COMPANY_ROLES), existingUser: z.boolean() });
/** Answer of DELETE /companies/{id}: a code was mailed (202), or the company is gone (200). */
export const companyDeletionSchema = z.union([z.object({ codeSent: z.literal(true) }), z.object({ deleted: z.literal(true) })]);
/** Path parameters of the company routes. */
export const companyParamsSchema = z.object({ id: z.string().max(64) });
export const memberParamsSchema = companyParamsSchema.extend({ userId: z.string().max(64) });
export const invitationParamsSchema = companyParamsSchema.extend({ invitationId: z.string().max(64) });
