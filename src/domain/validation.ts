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

export const passwordSchema = z
  .string({ error: 'validation.required' })
  .min(1, 'validation.required')
  .min(LIMITS.passwordMin, 'validation.passwordLength')
  .max(LIMITS.passwordMax, 'validation.passwordLength')
  .regex(/[A-Z]/, 'validation.uppercase')
  .regex(/[a-z]/, 'validation.lowercase')
  .regex(/[0-9]/, 'validation.number')
  .regex(special, 'validation.special')
  .refine(noHtml, 'validation.noHtml');
