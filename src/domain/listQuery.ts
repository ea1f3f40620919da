import { z } from 'zod';

/**
 * The list query every paged list speaks (ra-data-simple-rest, SPEC §9): `sort=["field","ASC"]`,
 * `range=[first,last]`, `filter={"q":"..."}`, each a JSON string in the query. Built here once so
 * the routes that read it and the browser that writes it cannot drift apart.
 */
export type SortOrder = 'ASC' | 'DESC';
export type SortFields = readonly [string, ...string[]];

/** A JSON query parameter, read by `schema`. */
export const jsonParam = <T extends z.ZodType>(schema: T) =>
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

/** `range`: at most 1,000 rows a page. */
export const rangeParam = jsonParam(z.tuple([z.number().int().min(0), z.number().int().min(0)]).refine(([a, b]) => b >= a && b - a < 1000, 'validation.invalid')).describe(
  'JSON: [first, last], at most 1000 rows',
);

/** `sort`: one of the list's own fields only. */
export const sortParam = <F extends SortFields>(fields: F) =>
  jsonParam(z.tuple([z.enum(fields, { error: 'validation.invalid' }), z.enum(['ASC', 'DESC'], { error: 'validation.invalid' })])).describe(`JSON: [${fields.map((f) => `"${f}"`).join('|')}, "ASC"|"DESC"]`);

/** `filter`: the search text, getMany's ids, and the list's own filters (validated). */
export const filterParam = <X extends z.ZodRawShape>(extra: X) =>
  jsonParam(z.object({ q: z.string().max(200).optional(), id: z.union([z.string(), z.array(z.string())]).optional(), ...extra })).describe('JSON: {"q": "search text", "id": [ids], ...filters}');

/** One list's dialect: the fields it sorts by, its own filters, its order when none is asked. */
export interface ListDialect<F extends SortFields, X extends z.ZodRawShape> {
  sortFields: F;
  filters: X;
  defaultSort: [F[number], SortOrder];
}

/** The query of one list: the first ten rows in its default order unless asked otherwise. */
export function listQuerySchema<F extends SortFields, X extends z.ZodRawShape>(dialect: ListDialect<F, X>) {
  return z.object({
    sort: sortParam(dialect.sortFields).default(dialect.defaultSort),
    range: rangeParam.default([0, 9]),
    filter: filterParam(dialect.filters).optional(),
  });
}

/** The same query written by the browser: empty filters left out so the URL (and cache key) stays short. */
export function listSearchParams(query: { range: [number, number]; sort: [string, SortOrder]; filter?: Record<string, unknown> }): URLSearchParams {
  const params = new URLSearchParams();
  params.set('range', JSON.stringify(query.range));
  params.set('sort', JSON.stringify(query.sort));
  const filter = Object.fromEntries(Object.entries(query.filter ?? {}).filter(([, v]) => v !== undefined && v !== ''));
  if (Object.keys(filter).length) params.set('filter', JSON.stringify(filter));
  return params;
}
