import { z } from 'zod';
import { emailSchema, noHtml } from '../validation';

/** The tools pages of SPEC §2 (/tools/...): the free app profile review request. */

import { APP_REVIEW_PLATFORMS } from '../constants';

export { APP_REVIEW_PLATFORMS, type AppReviewPlatform } from '../constants';

/** Only web addresses: a store link is shown to an admin as a link, so no other scheme gets in. */
const storeUrl = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, 'validation.required')
  .max(500, 'validation.invalid')
  .refine((s) => {
    try {
      const url = new URL(s);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.includes('.');
    } catch {
      return false;
    }
  }, 'validation.url');

/** POST /tools/app-profile-reviews: the form and the route validate with this one schema. */
export const appProfileReviewSchema = z.object({
  appName: z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(100, 'validation.invalid').refine(noHtml, 'validation.noHtml'),
  platform: z.enum(APP_REVIEW_PLATFORMS, { error: 'validation.required' }),
  storeUrl,
  email: emailSchema,
});
export type AppProfileReviewInput = z.infer<typeof appProfileReviewSchema>;

/** What the visitor gets back: the request's id and when it was received. */
export const appProfileReviewAnswerSchema = z.object({ _id: z.string(), createdAt: z.string() });
export type AppProfileReviewAnswer = z.infer<typeof appProfileReviewAnswerSchema>;

/** A request as the admin list shows it. */
export const appProfileReviewRowSchema = z.object({
  _id: z.string(),
  appName: z.string(),
  platform: z.string(),
  storeUrl: z.string(),
  email: z.string(),
  createdAt: z.string(),
});
export type AppProfileReviewRow = z.infer<typeof appProfileReviewRowSchema>;
