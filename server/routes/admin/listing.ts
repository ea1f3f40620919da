import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { exportLines, type ExportValue } from '../../services/exportStream';
import type { Key, ListQuery, Page, PageAt } from '../../services/adminQuery';
import type { SessionUser } from '../../services/sessions';
import { AppError } from '../../errors';
import { errorReplies, ok, replies } from '../envelope';
import { listQuerySchema, type ListDialect, type SortFields } from '../../../src/domain/listQuery';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A keyset cursor on the wire: the row's sort value and id as base64url JSON, opaque to the
 * browser, which hands back what the last answer gave (`x-cursor-first`, `x-cursor-last`).
 */
export const encodeCursor = (key: Key) => Buffer.from(JSON.stringify([key.value, key.id])).toString('base64url');
const cursorSchema = z
  .string()
  .max(2000)
  .transform((s, ctx): Key => {
    try {
      const parsed: unknown = JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
      if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === 'string' && typeof parsed[1] === 'string' && UUID.test(parsed[1])) return { value: parsed[0], id: parsed[1] };
    } catch {
      // Reported below, like every malformed cursor.
    }
    ctx.addIssue({ code: 'custom', message: 'validation.invalid' });
    return z.NEVER;
  });

/** `after=<cursor>` (next page), `before=<cursor>` (previous) or `before=end` (last page); neither: by range. */
const keysetSchema = {
  after: cursorSchema.optional().describe('Keyset: the page just after this row (x-cursor-last of the previous page)'),
  before: z
    .union([z.literal('end'), cursorSchema])
    .optional()
    .describe('Keyset: the page just before this row (x-cursor-first of the next page), or `end`: the last page'),
};

/** The list dialect (src/domain/listQuery.ts) and the keyset cursors only admin lists page by. */
function adminListQuerySchema<F extends SortFields, X extends z.ZodRawShape>(dialect: ListDialect<F, X>) {
  return listQuerySchema(dialect).extend(keysetSchema);
}

function pageAt(after: Key | undefined, before: Key | 'end' | undefined): PageAt | undefined {
  if (after && before) throw new AppError('VALIDATION_FAILED', { fieldErrors: { before: ['validation.invalid'] } });
  if (after) return { after };
  if (before) return { before: before === 'end' ? null : before };
  return undefined;
}

export const exportFormatSchema = z.enum(['csv', 'json'], { error: 'validation.invalid' });

export type { ListQuery };

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
  list(actor: SessionUser, input: { query: ListQuery<F[number], z.infer<z.ZodObject<X>>>; range: [number, number]; at?: PageAt }): Promise<Page<z.infer<R>> | { rows: z.infer<R>[]; total: number }>;
  /** Every matching row, in batches read by keyset, for the streamed export. */
  export(actor: SessionUser, input: { query: ListQuery<F[number], z.infer<z.ZodObject<X>>> }): AsyncIterable<Record<string, ExportValue>[]>;
}

/**
 * The two routes every admin resource has: `GET /<resource>` (a page, with Content-Range) and
 * `GET /<resource>/export?format=csv|json` (every matching row, streamed). Guarding is the admin
 * scope's job (see admin/index.ts).
 */
export function adminListing<F extends SortFields, R extends z.ZodType, X extends z.ZodRawShape = Record<never, never>>(listing: AdminListing<F, R, X>): FastifyPluginAsyncZod {
  const query = adminListQuerySchema<F, X>({ sortFields: listing.sortFields, filters: listing.filters ?? ({} as X), defaultSort: listing.defaultSort ?? ['_id', 'ASC'] });
  const tags = ['admin'];
  return async (app) => {
    app.get(`/${listing.resource}`, { schema: { tags, querystring: query, response: replies(z.array(listing.row)) } }, async (request, reply) => {
      const user = request.actor;
      const { sort, range, filter, after, before } = request.query;
      const page = await listing.list(user, { query: toListQuery<F[number], z.infer<z.ZodObject<X>>>(sort, filter), range, at: pageAt(after, before) });
      const { rows, total } = page;
      const end = rows.length ? range[0] + rows.length - 1 : range[0];
      // "10000+": a filtered list counted no further than the cap (ra-data-simple-rest's parseInt reads 10000).
      reply.header('content-range', `${listing.resource} ${range[0]}-${end}/${total}${'bounded' in page && page.bounded ? '+' : ''}`);
      if ('first' in page && page.first && page.last) reply.header('x-cursor-first', encodeCursor(page.first)).header('x-cursor-last', encodeCursor(page.last));
      return ok(rows);
    });

    app.get(
      `/${listing.resource}/export`,
      {
        schema: {
          tags,
          querystring: query.omit({ range: true, after: true, before: true }).extend({ format: exportFormatSchema }),
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
