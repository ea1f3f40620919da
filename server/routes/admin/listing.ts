import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { exportLines, type ExportValue } from '../../services/exportStream';
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

export function listQuerySchema<F extends SortFields>(sortFields: F) {
  return z.object({
    sort: json(z.tuple([z.enum(sortFields, { error: 'validation.invalid' }), z.enum(['ASC', 'DESC'], { error: 'validation.invalid' })]))
      .default(['_id' as F[number], 'ASC'])
      .describe('JSON: ["field","ASC"|"DESC"]'),
    range: json(z.tuple([z.number().int().min(0), z.number().int().min(0)]).refine(([a, b]) => b >= a && b - a < 1000, 'validation.invalid'))
      .default([0, 9])
      .describe('JSON: [first, last], at most 1000 rows'),
    filter: json(z.object({ q: z.string().max(200).optional() }).loose()).default({}).describe('JSON: {"q": "search text"}'),
  });
}

export const exportFormatSchema = z.enum(['csv', 'json'], { error: 'validation.invalid' });

/** What a list asks a service for: the whitelisted sort and the search text. */
export interface ListQuery<F extends string> {
  sort: [F, 'ASC' | 'DESC'];
  q?: string;
}

/** One admin resource as the shared listing serves it; the service does the reading. */
export interface AdminListing<F extends SortFields, R extends z.ZodType> {
  /** Path segment and Content-Range unit, e.g. `users`. */
  resource: string;
  /** The only fields a list may be sorted by. */
  sortFields: F;
  /** One row as the list answers it. */
  row: R;
  /** Export columns, in order, with their CSV headers. */
  columns: readonly { id: string; header: string }[];
  /** One page and the total count (the service checks the actor). */
  list(actor: SessionUser, input: { query: ListQuery<F[number]>; range: [number, number] }): Promise<{ rows: z.infer<R>[]; total: number }>;
  /** Every matching row, in batches read by keyset, for the streamed export. */
  export(actor: SessionUser, input: { query: ListQuery<F[number]> }): AsyncIterable<Record<string, ExportValue>[]>;
}

/**
 * The two routes every admin resource has: `GET /<resource>` (a page, with Content-Range) and
 * `GET /<resource>/export?format=csv|json` (every matching row, streamed). Guarding is the admin
 * scope's job (see admin/index.ts).
 */
export function adminListing<F extends SortFields, R extends z.ZodType>(listing: AdminListing<F, R>): FastifyPluginAsyncZod {
  const query = listQuerySchema(listing.sortFields);
  const tags = ['admin'];
  return async (app) => {
    app.get(`/${listing.resource}`, { schema: { tags, querystring: query, response: replies(z.array(listing.row)) } }, async (request, reply) => {
      const { user } = await request.requireSession();
      const { sort, range, filter } = request.query;
      const { rows, total } = await listing.list(user, { query: { sort, q: filter.q }, range });
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
        const { user } = await request.requireSession();
        const { sort, filter, format } = request.query;
        const date = new Date().toISOString().slice(0, 10);
        // A stream: the typed reply knows only JSON answers.
        return (reply as FastifyReply)
          .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
          .header('content-disposition', `attachment; filename="${listing.resource}-${date}.${format}"`)
          .send(Readable.from(exportLines(format, [...listing.columns], listing.export(user, { query: { sort, q: filter.q } }))));
      },
    );
  };
}
