import { newPasswordSchema } from '../../domain/auth/schemas';

/**
 * The i18n keys of the SPEC §5 password rules a value breaks, in the schema's order. 'Required'
 * is left out: the panel lists what to add, and an empty field breaks every other rule anyway.
 */
export function failedPasswordRules(value: string): string[] {
  const result = newPasswordSchema.safeParse(value);
  if (result.success) return [];
  const keys = result.error.issues.map((issue) => issue.message).filter((key) => key !== 'validation.required');
  return [...new Set(keys)];
}
