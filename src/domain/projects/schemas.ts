import { z } from 'zod';
import { LIMITS } from '../constants';
import { noHtml } from '../validation';

/** Projects of a company (SPEC §3 Project; Management › Project), shared by the form and the routes. */

/** How many projects one company may keep: enough for any team, a ceiling for scripts. */
export const MAX_PROJECTS_PER_COMPANY = 50;

export const projectNameSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, 'validation.required')
  .min(LIMITS.nameMin, 'validation.nameLength')
  .max(LIMITS.nameMax, 'validation.nameLength')
  .refine(noHtml, 'validation.noHtml');

/** POST /companies/{id}/projects and PUT /companies/{id}/projects/{projectId}. */
export const projectBodySchema = z.object({ name: projectNameSchema });
export type ProjectBody = z.infer<typeof projectBodySchema>;

export const projectDtoSchema = z.object({
  _id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  /** Servers in the project that are not deleted: a project with servers cannot be deleted. */
  servers: z.number().int(),
});
export type ProjectDto = z.infer<typeof projectDtoSchema>;

export const projectListParamsSchema = z.object({ id: z.string().max(64) });
export const projectParamsSchema = projectListParamsSchema.extend({ projectId: z.string().max(64) });
