import { z } from 'zod';
import { LIMITS } from './constants';

/**
 * Field rules of SPEC §5, shared by forms and request bodies. Messages are i18n keys
 * (`validation.*`); the browser translates them and the server sends their English text.
 */
export const SPECIAL_CHARACTERS = '#?!@$%^&*-.:';
const special = new RegExp(`[${SPECIAL_CHARACTERS.replace(/[-\\^\]]/g, '\\$&')}]`);
const html = /<\/?[a-z!][^>]*>/i;

export const noHtml = (s: string) => !html.test(s);

export const emailSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, 'validation.required')
  .max(LIMITS.emailMax, 'validation.emailMax')
  .refine(noHtml, 'validation.noHtml')
  .pipe(z.email('validation.email'))
  .transform((s) => s.toLowerCase());

/**
 * SPEC §5's password rules, widened by the security review: up to 128 characters, and from 16 on
 * a passphrase of plain words is accepted without the character classes.
 */
const CLASSES: [RegExp, string][] = [
  [/[A-Z]/, 'validation.uppercase'],
  [/[a-z]/, 'validation.lowercase'],
  [/[0-9]/, 'validation.number'],
  [special, 'validation.special'],
];

export const passwordSchema = z
  .string({ error: 'validation.required' })
  .min(1, 'validation.required')
  .min(LIMITS.passwordMin, 'validation.passwordLength')
  .max(LIMITS.passwordMax, 'validation.passwordLength')
  .superRefine((value, ctx) => {
    if (value.length >= LIMITS.passphraseMin) return;
    const missing = CLASSES.filter(([pattern]) => !pattern.test(value));
    for (const [, message] of missing) ctx.addIssue({ code: 'custom', message });
    if (missing.length) ctx.addIssue({ code: 'custom', message: 'validation.orPassphrase' });
  })
  .refine(noHtml, 'validation.noHtml');
