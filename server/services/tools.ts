import { count, sql, type SQL } from 'drizzle-orm';
import type { TFunction } from 'i18next';
import type { AppProfileReviewInput, AppProfileReviewRow } from '../../src/domain/tools/schemas';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { appProfileReviews } from '../db/schema';
import { AppError } from '../errors';
import type { Mailer } from '../mail/mailer';
import { renderMail } from '../mail/templates';
import { listAndExport, searchOver, type AdminTable, type ListQuery } from './adminQuery';
import type { RateCounters } from './rateCounters';

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

type ReviewQuery = ListQuery<ReviewSortField>;

type ReviewRecord = typeof appProfileReviews.$inferSelect;
const toRow = (r: ReviewRecord): AppProfileReviewRow & Record<string, string> => ({
  _id: r.id,
  appName: r.appName,
  platform: r.platform,
  storeUrl: r.storeUrl,
  email: r.email,
  createdAt: r.createdAt.toISOString(),
});

const reviewsTable = (db: Db): AdminTable<ReviewSortField, AppProfileReviewRow & Record<string, string>> => ({
  sortColumns: {
    _id: { column: appProfileReviews.id, type: 'uuid' },
    createdAt: { column: appProfileReviews.createdAt, type: 'timestamptz' },
    appName: { column: appProfileReviews.appName, type: 'text' },
    platform: { column: appProfileReviews.platform, type: 'text' },
    email: { column: appProfileReviews.email, type: 'text' },
  },
  id: appProfileReviews.id,
  async select({ where, orderBy, cursor, limit, offset }) {
    const rows = await db.select({ review: appProfileReviews, cursor: sql<string>`${cursor}` }).from(appProfileReviews).where(where).orderBy(...orderBy).limit(limit).offset(offset);
    return rows.map((r) => ({ row: toRow(r.review), cursor: r.cursor, id: r.review.id }));
  },
  count: async (where) => (await db.select({ n: count() }).from(appProfileReviews).where(where))[0]?.n ?? 0,
});

const whereOf = (query: ReviewQuery): SQL | undefined => searchOver(query.q, [appProfileReviews.appName, appProfileReviews.email, appProfileReviews.storeUrl]);

export type ToolsService = ReturnType<typeof createToolsService>;

/** The tools pages' server side: review requests from visitors, listed for platform admins. */
export function createToolsService({ db, config, mailer, t, counters }: { db: Db; config: Config; mailer: Mailer; t: TFunction; counters: RateCounters }) {
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
    ...listAndExport({ db, resource: 'appProfileReviews' }, reviewsTable(db), whereOf),
  };
}
