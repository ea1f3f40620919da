import { z } from 'zod';
import { LIMITS } from '../constants';
import { noHtml } from '../validation';
import { designationSchema } from '../companies/schemas';

/**
 * PUT /users/{id} (SPEC §3 profile update): JSON, or multipart when a picture is uploaded (file
 * field `uploadPicture`). `removePicture` drops the current one.
 */
export const profileUpdateSchema = z.object({
  firstName: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, 'validation.required')
    .min(LIMITS.nameMin, 'validation.nameLength')
    .max(LIMITS.nameMax, 'validation.nameLength')
    .refine(noHtml, 'validation.noHtml'),
  designation: designationSchema,
  removePicture: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).optional(),
});
export type ProfileUpdateBody = z.infer<typeof profileUpdateSchema>;

/** Path parameters of the user routes. */
export const userParamsSchema = z.object({ id: z.string().max(64) });

/** GET /users/{id}/export: the user's data as a JSON file (no secrets), described for the docs. */
export const userDataExportSchema = z.object({
  exportedAt: z.string(),
  user: z.looseObject({ _id: z.string(), email: z.string() }),
  companies: z.array(z.looseObject({ _id: z.string(), name: z.string() })),
  sessions: z.array(z.looseObject({ createdAt: z.string() })),
});
