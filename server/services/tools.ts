import { and, asc, count, desc, gt, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { TFunction } from 'i18next';
import type { AppProfileReviewInput, AppProfileReviewRow } from '../../src/domain/schemas/tools';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { appProfileReviews } from '../db/schema';
import { AppError } from '../errors';
import type { Mailer } from '../mail/mailer';
import { renderMail } from '../mail/templates';
import type { RateCounters } from './rateCounters';
import type { SessionUser } from './sessions';

export const REVIEW_SORT_FIELDS = ['_id', 'createdAt', 'appName', 'platform', 'email'] as const;
export type ReviewSortField = (typeof REVIEW_SORT_FIELDS)[number];

export const REVIEW_EXPORT_COLUMNS = [
  { id: '_id', header: 'ID' },
  { id: 'appName', header: 'App name' },
  { id: 'platform', header: 'Platform' },
  { id: 'storeUrl', header: 'Store link' },
  { id: 'email', header: 'Email' },
  { id: 'createdAt', header: 'Received' },
] as const;

/** Requests per email address per day: a mailbox cannot be flooded with confirmations through us. */
export const REVIEWS_PER_EMAIL_PER_DAY = 3;
/** The days the confirmation mail promises a reply within. */
export const REVIEW_REPLY_DAYS = 3;

const SORT_COLUMNS = {
  _id: appProfileReviews.id,
  createdAt: appProfileReviews.createdAt,
  appName: appProfileReviews.appName,
  platform: appProfileReviews.platform,
  email: appProfileReviews.email,
} as const;
const SQL_TYPES: Record<ReviewSortField, string> = { _id: 'uuid', createdAt: 'timestamptz', appName: 'text', platform: 'text', email: 'text' };

interface ReviewQuery {
  sort: [ReviewSortField, 'ASC' | 'DESC'];
  q?: string;
}

function search(q?: string): SQL | undefined {
  if (!q?.trim()) return undefined;
  const like = `%${q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return or(ilike(appProfileReviews.appName, like), ilike(appProfileReviews.email, like), ilike(appProfileReviews.storeUrl, like));
}

type ReviewRecord = typeof appProfileReviews.$inferSelect;
const toRow = (r: ReviewRecord): AppProfileReviewRow & Record<string, string> => ({
  _id: r.id,
  appName: r.appName,
  platform: r.platform,
  storeUrl: r.storeUrl,
  email: r.email,
  createdAt: r.createdAt.toISOString(),
});

function requirePlatformAdmin(actor: SessionUser) {
  if (!actor.isAdmin) throw new AppError('FORBIDDEN');
}

export type ToolsService = ReturnType<typeof createToolsService>;

/** The tools pages' server side: review requests from visitors, listed for platform admins. */
export function createToolsService({ db, config, mailer, t, counters }: { db: Db; config: Config; mailer: Mailer; t: TFunction; counters: RateCounters }) {
  /** Keyset batches (sort value, id), as the admin users export reads them. */
  async function* exportReviews(query: ReviewQuery, batchSize = 1000) {
    const [field, order] = query.sort;
    const column = SORT_COLUMNS[field];
    const type = sql.raw(SQL_TYPES[field]);
    let after: { value: string; id: string } | null = null;
    for (;;) {
      let cmp: SQL | undefined;
      if (after) {
        const value = sql`cast(${after.value} as ${type})`;
        cmp =
          order === 'ASC'
            ? sql`(${column}, ${appProfileReviews.id}) > (${value}, ${after.id}::uuid)`
            : or(sql`${column} < ${value}`, and(sql`${column} = ${value}`, gt(appProfileReviews.id, after.id)));
      }
      const rows: { review: ReviewRecord; cursor: string }[] = await db
        .select({ review: appProfileReviews, cursor: sql<string>`${column}::text` })
        .from(appProfileReviews)
        .where(and(search(query.q), cmp))
        .orderBy(order === 'ASC' ? asc(column) : desc(column), asc(appProfileReviews.id))
        .limit(batchSize);
      if (!rows.length) return;
      yield rows.map((r) => toRow(r.review));
      const last = rows[rows.length - 1];
      if (!last || rows.length < batchSize) return;
      after = { value: last.cursor, id: last.review.id };
    }
  }

  return {
    /**
     * A visitor's request (no actor: the page is public). Counted per email before anything is
     * stored; the confirmation goes out after the answer, so a slow mail server delays nobody.
     */
    async submitReview(_actor: null, input: AppProfileReviewInput & { ip: string | null }) {
      await counters.hit(`app-review:${input.email}`, { max: REVIEWS_PER_EMAIL_PER_DAY, windowMinutes: 24 * 60 });
      const [row] = await db
        .insert(appProfileReviews)
        .values({ appName: input.appName, platform: input.platform, storeUrl: input.storeUrl, email: input.email, ip: input.ip })
        .returning();
      if (!row) throw new AppError('INTERNAL');
      // While they wait, the sample dashboard shows what a reviewed set-up looks like.
      const link = `${config.publicUrl}/#/tools/dashboard-preview`;
      const mail = renderMail(t, 'appReview', { name: input.email, link, expiry: { days: REVIEW_REPLY_DAYS } });
      mailer.later(() => mailer.send(input.email, mail, link));
      return { _id: row.id, createdAt: row.createdAt.toISOString() };
    },
    async list(actor: SessionUser, input: { query: ReviewQuery; range: [number, number] }) {
      requirePlatformAdmin(actor);
      const where = search(input.query.q);
      const [field, order] = input.query.sort;
      const column = SORT_COLUMNS[field];
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(appProfileReviews)
          .where(where)
          .orderBy(order === 'ASC' ? asc(column) : desc(column), asc(appProfileReviews.id))
          .limit(input.range[1] - input.range[0] + 1)
          .offset(input.range[0]),
        db.select({ n: count() }).from(appProfileReviews).where(where),
      ]);
      return { rows: rows.map(toRow), total: total?.n ?? 0 };
    },
    export(actor: SessionUser, input: { query: ReviewQuery }) {
      requirePlatformAdmin(actor);
      return exportReviews(input.query);
    },
  };
}
