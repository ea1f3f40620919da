import { z } from 'zod';
import { COMPANY_ROLES, COMPANY_SIZES, DESIGNATIONS, LIMITS } from '../constants';
import { countryCodeSchema } from '../countries';
import { emailSchema, noHtml } from '../validation';
import { newPasswordSchema, tokenSchema } from '../auth/schemas';

/** Company, team and invitation bodies (SPEC §3, §5, §7 Companies), shared by forms and server. */

export { COMPANY_ROLES, COMPANY_SIZES };
export type { CompanyRole } from '../constants';

// A company name is shown to teammates and in mails: no links that could pass for ours.
const URL_LIKE = /(https?:\/\/|www\.|\b[a-z0-9-]+\.(com|net|org|io|co|app|dev|xyz|info|biz|ru|cn)\b)/i;

export const companyNameSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, 'validation.required')
  .min(LIMITS.nameMin, 'validation.nameLength')
  .max(LIMITS.nameMax, 'validation.nameLength')
  .refine(noHtml, 'validation.noHtml')
  .refine((s) => !URL_LIKE.test(s), 'validation.noUrl');

export const designationSchema = z.enum(DESIGNATIONS, { error: 'validation.required' });

export const createCompanySchema = z.object({
  name: companyNameSchema,
  size: z.enum(COMPANY_SIZES, { error: 'validation.required' }).optional(),
});
export type CreateCompanyBody = z.infer<typeof createCompanySchema>;

export const createCompanyQuerySchema = z.object({
  onboarding: z.enum(['1', 'true']).optional(),
  designation: designationSchema.optional(),
});

/**
 * PUT /companies/{id}: JSON, or multipart when a logo is uploaded (file field `uploadLogo`). The
 * billing country sets the tax on the company's orders; an empty string clears it (tax id too).
 */
/** The VAT/tax id printed on the company's invoices: letters, digits, spaces, `.-/`; empty clears it. */
export const taxIdSchema = z
  .string()
  .trim()
  .max(LIMITS.taxIdMax, 'validation.taxId')
  .regex(/^[A-Za-z0-9 ./-]*$/, 'validation.taxId')
  .transform((s) => (s === '' ? null : s));

/**
 * The billing address printed on invoices, international: street lines (building, street, unit;
 * up to 3, one a line), a postal code (letters, digits, spaces, dashes; some countries have none)
 * and a city. Plain text; empty clears a field.
 */
const emptyToNull = (s: string) => (s === '' ? null : s);
export const billingAddressSchema = z
  .string()
  .transform((s) =>
    s
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean)
      .join('\n'),
  )
  .refine((s) => s.split('\n').length <= LIMITS.addressLines && s.split('\n').every((l) => l.length <= LIMITS.addressLineMax), 'validation.addressLines')
  .refine(noHtml, 'validation.noHtml')
  .transform(emptyToNull);
export const postalCodeSchema = z
  .string()
  .trim()
  .max(LIMITS.postalCodeMax, 'validation.postalCode')
  .regex(/^[A-Za-z0-9 -]*$/, 'validation.postalCode')
  .transform((s) => emptyToNull(s.toUpperCase()));
export const citySchema = z.string().trim().max(LIMITS.cityMax, 'validation.city').refine(noHtml, 'validation.noHtml').transform(emptyToNull);

export const updateCompanySchema = createCompanySchema.extend({
  billingCountry: countryCodeSchema.nullable().optional(),
  taxId: taxIdSchema.nullable().optional(),
  billingAddress: billingAddressSchema.nullable().optional(),
  billingPostalCode: postalCodeSchema.nullable().optional(),
  billingCity: citySchema.nullable().optional(),
  removeLogo: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).optional(),
});
export type UpdateCompanyBody = z.infer<typeof updateCompanySchema>;

export const invitationSchema = z.object({
  email: emailSchema,
  role: z.enum(COMPANY_ROLES, { error: 'validation.required' }),
});
export type InvitationBody = z.infer<typeof invitationSchema>;

const invitedName = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, 'validation.required')
  .min(LIMITS.invitedNameMin, 'validation.invitedNameLength')
  .max(LIMITS.nameMax, 'validation.invitedNameLength')
  .refine(noHtml, 'validation.noHtml');

export const invitedSignUpSchema = z.object({
  token: tokenSchema,
  firstName: invitedName,
  lastName: invitedName,
  designation: designationSchema,
  password: newPasswordSchema,
});
export type InvitedSignUpBody = z.infer<typeof invitedSignUpSchema>;

export const deletionCodeSchema = z.string().regex(new RegExp(`^\\d{${LIMITS.dataRemovalCodeLength}}$`), 'validation.deletionCode');
export const deleteCompanySchema = z.object({ verificationCode: deletionCodeSchema.optional() });
