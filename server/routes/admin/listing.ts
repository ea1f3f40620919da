import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { exportLines, type ExportValue } from '../../services/exportStream';
import type { ListQuery } from '../../services/adminQuery';
import type { SessionUser } from '../../services/sessions';
import { errorReplies, ok, replies } from '../envelope';

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

type SortFields = readonly [string, ...string[]];

/** `filter`: the search text, getMany's ids, and the resource's own filters (validated). */
function filterSchema<X extends z.ZodRawShape>(extra: X) {
  return z.object({ q: z.string().max(200).optional(), id: z.union([z.string(), z.array(z.string())]).optional(), ...extra });
}

export function listQuerySchema<F extends SortFields, X extends z.ZodRawShape = Record<never, never>>(sortFields: F, extra: X = {} as X, defaultSort: [F[number], 'ASC' | 'DESC'] = ['_id', 'ASC']) {
  return z.object({
    sort: json(z.tuple([z.enum(sortFields, { error: 'validation.invalid' }), z.enum(['ASC', 'DESC'], { error: 'validation.invalid' })]))
      .default(defaultSort)
      .describe('JSON: ["field","ASC"|"DESC"]'),
    range: json(z.tuple([z.number().int().min(0), z.number().int().min(0)]).refine(([a, b]) => b >= a && b - a < 1000, 'validation.invalid'))
      .default([0, 9])
      .describe('JSON: [first, last], at most 1000 rows'),
    filter: json(filterSchema(extra))
      .optional()
      .describe('JSON: {"q": "search text", "id": [ids], ...filters}'),
  });
}

export const exportFormatSchema = z.enum(['csv', 'json'], { error: 'validation.invalid' });

export type { ListQuery };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The list query a service gets: getMany's ids (malformed ones match nothing) and the filters apart. */
function toListQuery<F extends string, Filter>(sort: [F, 'ASC' | 'DESC'], filter: object | undefined): ListQuery<F, Filter> {
  // Validated by filterSchema: q is a string, id a string or strings, the rest the resource's filters.
  const { q, id, ...rest } = (filter ?? {}) as { q?: string; id?: string | string[] };
  const ids = id === undefined ? undefined : (Array.isArray(id) ? id : [id]).filter((x) => UUID.test(x));
  return { sort, q, ids, filter: rest as Filter };
}

/** One admin resource as the shared listing serves it; the service does the reading. */
export interface AdminListing<F extends SortFields, R extends z.ZodType, X extends z.ZodRawShape = Record<never, never>> {
  /** Path segment and Content-Range unit, e.g. `users`. */
  resource: string;
  /** The only fields a list may be sorted by. */
  sortFields: F;
  /** SPEC §9's `_id` ascending unless the resource reads better otherwise (the log: newest first). */
  defaultSort?: [F[number], 'ASC' | 'DESC'];
  /** One row as the list answers it. */
  row: R;
  /** The resource's own filters, besides `q` and `id`. */
  filters?: X;
  /** Export columns, in order, with their CSV headers. */
  columns: readonly { id: string; header: string }[];
  /** One page and the total count (the service checks the actor). */
  list(actor: SessionUser, input: { query: ListQuery<F[number], z.infer<z.ZodObject<X>>>; range: [number, number] }): Promise<{ rows: z.infer<R>[]; total: number }>;
  /** Every matching row, in batches read by keyset, for the streamed export. */
  export(actor: SessionUser, input: { query: ListQuery<F[number], z.infer<z.ZodObject<X>>> }): AsyncIterable<Record<string, ExportValue>[]>;
}

/**
 * The two routes every admin resource has: `GET /<resource>` (a page, with Content-Range) and
 * `GET /<resource>/export?format=csv|json` (every matching row, streamed). Guarding is the admin
 * scope's job (see admin/index.ts).
 */
export function adminListing<F extends SortFields, R extends z.ZodType, X extends z.ZodRawShape = Record<never, never>>(listing: AdminListing<F, R, X>): FastifyPluginAsyncZod {
  const query = listQuerySchema(listing.sortFields, listing.filters ?? ({} as X), listing.defaultSort);
  const tags = ['admin'];
  return async (app) => {
    app.get(`/${listing.resource}`, { schema: { tags, querystring: query, response: replies(z.array(listing.row)) } }, async (request, reply) => {
      const user = request.actor;
      const { sort, range, filter } = request.query;
      const { rows, total } = await listing.list(user, { query: toListQuery<F[number], z.infer<z.ZodObject<X>>>(sort, filter), range });
      const end = rows.length ? range[0] + rows.length - 1 : range[0];
      reply.header('content-range', `${listing.resource} ${range[0]}-${end}/${total}`);
      return ok(rows);
    });

    app.get(
      `/${listing.resource}/export`,
      {
        schema: {
          tags,
          querystring: query.omit({ range: true }).extend({ format: exportFormatSchema }),
          response: { 200: { description: 'Every matching row as a file download, streamed', content: { 'text/csv': { schema: z.string() }, 'application/json': { schema: z.array(listing.row) } } }, ...errorReplies },
        },
      },
      async (request, reply) => {
        const user = request.actor;
        const { sort, filter, format } = request.query;
        const date = new Date().toISOString().slice(0, 10);
        // A stream: the typed reply knows only JSON answers.
        return (reply as FastifyReply)
          .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
          .header('content-disposition', `attachment; filename="${listing.resource}-${date}.${format}"`)
          .send(Readable.from(exportLines(format, [...listing.columns], listing.export(user, { query: toListQuery<F[number], z.infer<z.ZodObject<X>>>(sort, filter) }))));
      },
    );
  };
}
