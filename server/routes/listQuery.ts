import { z } from 'zod';

/**
 * The list query of ra-data-simple-rest (SPEC §9 table defaults): `sort=["field","ASC"]`,
 * `range=[start,end]`, `filter={"q":"..."}`, each a JSON string in the query.
 */
const json = <T extends z.ZodType>(schema: T) =>
  z
    .string()
    .transform((s, ctx) => {
      try {
        return JSON.parse(s) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'validation.invalid' });
        return z.NEVER;
      }
    })
    .pipe(schema);

export function listQuerySchema<F extends readonly [string, ...string[]]>(sortFields: F) {
  return z.object({
    sort: json(z.tuple([z.enum(sortFields, { error: 'validation.invalid' }), z.enum(['ASC', 'DESC'], { error: 'validation.invalid' })])).default(['_id' as F[number], 'ASC']),
    range: json(z.tuple([z.number().int().min(0), z.number().int().min(0)]).refine(([a, b]) => b >= a && b - a < 1000, 'validation.invalid')).default([0, 9]),
    filter: json(z.object({ q: z.string().max(200).optional() }).loose()).default({}),
  });
}

export const exportFormatSchema = z.enum(['csv', 'json'], { error: 'validation.invalid' });
