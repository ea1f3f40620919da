import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { DropKind } from '../../domain/constants';
import { dayIn, isInternal, VIEW_KEY } from '../../domain/rules';
import { MAX_VIEWS_PER_DAY } from '../../domain/views';
import type { Db } from '../../../server/db/client';
import type { AnalyticsRawEvent } from '../../../server/db/schema';
import type { App } from './access';
import type { ParsedEvent } from './parse';

/** What one accepted SDK request writes, once checked and its events cut to the limits. */
export interface Write {
  app: App;
  hash: string;
  deviceId: string;
  at: Date;
  day: string;
  begin: boolean;
  duration: number;
  metrics: Record<string, string>;
  details: Record<string, unknown>;
  /** Custom events, after the limits. */
  events: ParsedEvent[];
  /** The SDKs' own events ([CLY]_...): outside the limits. */
  internal: ParsedEvent[];
  drops: Map<DropKind, number>;
}

type DailyRow = { k: string; d: string; s: string; v: string; c: number; su: number; du: number };

/** The day rows of a request's events: totals under segment '' and one row per segment value (the SDKs' own events only totals). */
function dailyRows(app: App, events: ParsedEvent[]): DailyRow[] {
  const rows = new Map<string, DailyRow>();
  const add = (k: string, d: string, s: string, v: string, e: ParsedEvent) => {
    const id = `${k}\u0000${d}\u0000${s}\u0000${v}`;
    const row = rows.get(id) ?? { k, d, s, v, c: 0, su: 0, du: 0 };
    row.c += e.count;
    row.su += e.sum ?? 0;
    row.du += e.dur ?? 0;
    rows.set(id, row);
  };
  for (const e of events) {
    const day = dayIn(app.timezone, e.at);
    add(e.key, day, '', '', e);
    // Internal events' segments (view names, ratings...) are unbounded and outside the limits: totals only.
    if (isInternal(e.key)) continue;
    for (const [segment, value] of Object.entries(e.segmentation)) add(e.key, day, segment, value, e);
  }
  return [...rows.values()];
}

type ViewRow = { n: string; d: string; v: number; du: number };

/** The day rows of a request's views: a `[CLY]_view` with `visit=1` is a visit, any one may bring its duration. */
function viewRows(app: App, events: ParsedEvent[]): ViewRow[] {
  const rows = new Map<string, ViewRow>();
  for (const e of events) {
    const name = e.segmentation.name;
    if (e.key !== VIEW_KEY || !name) continue;
    const d = dayIn(app.timezone, e.at);
    const id = `${name}\u0000${d}`;
    const row = rows.get(id) ?? { n: name, d, v: 0, du: 0 };
    if (e.segmentation.visit === '1') row.v += 1;
    row.du += Math.max(0, e.dur ?? 0);
    rows.set(id, row);
  }
  return [...rows.values()];
}

/** A request's raw events as kept (analytics_raw_requests), with the span of their instants; nothing for a request without events. */
function rawRow(events: ParsedEvent[]): { raw?: AnalyticsRawEvent[]; first_at?: string; last_at?: string } {
  if (events.length === 0) return {};
  let first = Infinity;
  let last = -Infinity;
  const raw = events.map((e) => {
    const t = e.at.getTime();
    if (t < first) first = t;
    if (t > last) last = t;
    return { key: e.key, count: e.count, sum: e.sum, dur: e.dur, segmentation: Object.keys(e.segmentation).length ? e.segmentation : null, timestamp: e.at.toISOString() };
  });
  return { raw, first_at: new Date(first).toISOString(), last_at: new Date(last).toISOString() };
}

/** A PostgreSQL array literal of numbers: built here in one pass, cheaper than the drivers' encoding element by element. */
const numbers = (values: (number | null)[]) => `{${values.map((n) => n ?? 'NULL').join(',')}}`;

/** Distinct values numbered from 1 in first-seen order (as `with ordinality` numbers them), for a column sent as numbers. */
function dictionary<T>(id: (value: T) => string = String) {
  const ids = new Map<string, number>();
  const values: T[] = [];
  return {
    values,
    of(value: T): number {
      const key = id(value);
      let n = ids.get(key);
      if (n === undefined) {
        values.push(value);
        n = values.length;
        ids.set(key, n);
      }
      return n;
    },
  };
}

/**
 * The statement's parameters: one JSON row per request (with its raw events), its drops and views
 * tagged with the request's index, and its day rows as columns of numbers. Requests repeat the
 * same few row keys: each goes once, in a dictionary the rows point into, and PostgreSQL reads
 * numbers far faster than the same rows as JSON objects.
 */
function parameters(writes: Write[]) {
  const req: unknown[] = [];
  const drops: unknown[] = [];
  const views: unknown[] = [];
  const rowKeys = dictionary<DailyRow>((row) => `${row.k}\u0000${row.d}\u0000${row.s}\u0000${row.v}`);
  const ev = { i: [] as number[], r: [] as number[], c: [] as number[], su: [] as number[], du: [] as number[] };
  writes.forEach((w, i) => {
    const all = [...w.events, ...w.internal];
    req.push({ i, app: w.app.id, hash: w.hash, dev: w.deviceId, at: w.at.toISOString(), day: w.day, mon: w.day.slice(0, 7), b: w.begin, dur: w.duration, metrics: w.metrics, details: w.details, ...rawRow(all) });
    for (const row of dailyRows(w.app, all)) {
      ev.i.push(i);
      ev.r.push(rowKeys.of(row));
      ev.c.push(row.c);
      ev.su.push(row.su);
      ev.du.push(row.du);
    }
    for (const [kind, n] of w.drops) drops.push({ i, kind, n });
    for (const r of viewRows(w.app, w.internal)) views.push({ i, ...r });
  });
  return {
    // Parts the statement leaves out when the batch has nothing for them.
    has: { sessions: writes.some((w) => w.begin || w.duration > 0), drops: drops.length > 0, views: views.length > 0 },
    req: JSON.stringify(req),
    drops: JSON.stringify(drops),
    views: JSON.stringify(views),
    keys: JSON.stringify(rowKeys.values.map(({ k, d, s, v }, n) => ({ r: n + 1, k, d, s, v }))),
    ev: { i: numbers(ev.i), r: numbers(ev.r), c: numbers(ev.c), su: numbers(ev.su), du: numbers(ev.du) },
  };
}

const dialect = new PgDialect();

/**
 * Writes a batch of requests as one statement (group commit): every request's retry hash is
 * claimed and every other write takes its rows from the claims, so a retry (even one in the same
 * batch) changes nothing. Each request's raw events go in one row (one insert for the batch):
 * a row per event was half of a batch's time. Each aggregate row (device, day,
 * event/segment value, drop kind, view) gets one upsert per batch, summed over the batch, in key
 * order, so concurrent batches lock rows in the same order and cannot deadlock. A one-request batch
 * is the same statement. Answers the indexes of the requests that were new.
 */
export async function writeBatch(db: Db, writes: Write[]): Promise<Set<number>> {
  if (writes.length === 0) return new Set();
  const { statement, name } = batchStatement(writes);
  // Named, PostgreSQL parses and plans each form of the statement once per connection instead of
  // at every batch (most of a small batch's time); PGlite ignores the name.
  const query = dialect.sqlToQuery(statement);
  const result = (await db._.session.prepareQuery(query, undefined, name, false).execute()) as { rows: { i: number }[] };
  // Both drivers answer { rows }; the generic database type does not say so.
  return new Set(result.rows.map((row) => Number(row.i)));
}

/**
 * The statement writing a batch (it answers the indexes of its new requests), and its name. The
 * sessions, drops and views parts are left out of a batch that has nothing for them (most batches
 * bring neither drops nor views): each costs its share of the statement even when empty (a tenth
 * of a small batch's time on PGlite). Each form has a name of its own.
 */
export function batchStatement(writes: Write[]): { statement: SQL; name: string } {
  const params = parameters(writes);
  const { has } = params;
  const name = `analytics_ingest_batch${has.sessions ? '_s' : ''}${has.drops ? '_d' : ''}${has.views ? '_v' : ''}`;
  return { statement: batchSql(params), name };
}

/** The statement's text over its parameters; the parts `has` leaves out are not in it. */
function batchSql({ has, req, drops, views, keys, ev }: ReturnType<typeof parameters>): SQL {
  // Each aggregate reads the requests once, grouped: a join of two of these CTEs (nothing known
  // of their sizes) is planned as a nested loop, whose time grows with the square of the batch.
  return sql`
    with req as (
      select * from jsonb_to_recordset(${req}::jsonb) as x(i int, app uuid, hash text, dev text, at timestamptz, day text, mon text, b boolean, dur float8, metrics jsonb, details jsonb, raw jsonb, first_at timestamptz, last_at timestamptz)
    ), claim as (
      insert into analytics_request_hashes (app_id, hash) select distinct app, hash from req order by app, hash on conflict do nothing returning app_id, hash
    ), claimed as (
      select distinct on (r.app, r.hash) r.* from req r join claim c on c.app_id = r.app and c.hash = r.hash order by r.app, r.hash, r.i
    ), devs as (
      -- Metrics and details merged in request order (a later value wins).
      select app, dev, (array_agg(at order by i))[1] as first_at, max(at) as last_at, (count(*) filter (where b))::int as begins,
        (array_agg(day order by i) filter (where b))[1] as begin_day, sum(dur) as dur,
        (select jsonb_object_agg(kv.key, kv.value order by o) from unnest(array_agg(metrics order by i)) with ordinality as m(j, o) cross join lateral jsonb_each(m.j) kv) as metrics,
        (select jsonb_object_agg(kv.key, kv.value order by o) from unnest(array_agg(details order by i)) with ordinality as m(j, o) cross join lateral jsonb_each(m.j) kv) as details
      from claimed group by app, dev
    ), u as (
      insert into analytics_app_users (app_id, device_id, first_seen_at, last_seen_at, sessions, total_duration, metrics, details)
      select app, dev, first_at, last_at, begins, dur, coalesce(metrics, '{}'::jsonb), coalesce(details, '{}'::jsonb) from devs order by app, dev
      on conflict (app_id, device_id) do update set
        last_seen_at = greatest(analytics_app_users.last_seen_at, excluded.last_seen_at),
        sessions = analytics_app_users.sessions + excluded.sessions,
        total_duration = analytics_app_users.total_duration + excluded.total_duration,
        metrics = analytics_app_users.metrics || excluded.metrics,
        details = analytics_app_users.details || excluded.details
      returning app_id, device_id, sessions
${has.sessions ? sql`
    ), fresh as (
      -- A new user: the device had no session before this batch, counted on the day of its first
      -- begin in it. Devices and their stored rows are matched by grouping them together.
      select app, day, count(*)::int as n from (
        select app, dev, max(day) as day, max(begins) as begins, max(sessions) as sessions from (
          select app, dev, begin_day as day, begins, null::int as sessions from devs where begins > 0
          union all
          select app_id, device_id, null, null, sessions from u
        ) both_sides group by app, dev
      ) d where sessions = begins group by app, day
` : sql.empty()}
    ), m as (
      insert into analytics_monthly_devices (app_id, month, device_id) select distinct app, mon, dev from claimed order by app, mon, dev on conflict do nothing
${has.sessions ? sql`
    ), s as (
      insert into analytics_daily_sessions (app_id, day, sessions, new_users, duration)
      select g.app, g.day, g.sessions, coalesce(f.n, 0), g.dur from (
        select app, day, (count(*) filter (where b))::int as sessions, sum(dur) as dur from claimed where b or dur > 0 group by app, day
      ) g left join fresh f on f.app = g.app and f.day = g.day order by g.app, g.day
      on conflict (app_id, day) do update set
        sessions = analytics_daily_sessions.sessions + excluded.sessions,
        new_users = analytics_daily_sessions.new_users + excluded.new_users,
        duration = analytics_daily_sessions.duration + excluded.duration
` : sql.empty()}
    ), e as (
      insert into analytics_daily_events (app_id, event_key, day, segment, value, count, sum, dur)
      -- Summed by row key number first: sorting the day rows by their four texts cost more than the rest.
      select x.app, k.k, k.d, k.s, k.v, x.c, x.su, x.du from (
        select c.app, x.r, sum(x.c) as c, sum(x.su) as su, sum(x.du) as du
        from unnest(${ev.i}::int[], ${ev.r}::int[], ${ev.c}::float8[], ${ev.su}::float8[], ${ev.du}::float8[]) as x(i, r, c, su, du) join claimed c on c.i = x.i
        group by c.app, x.r
      ) x join jsonb_to_recordset(${keys}::jsonb) as k(r int, k text, d text, s text, v text) on k.r = x.r
      order by x.app, k.k, k.d, k.s, k.v
      on conflict (app_id, event_key, day, segment, value) do update set
        count = analytics_daily_events.count + excluded.count,
        sum = analytics_daily_events.sum + excluded.sum,
        dur = analytics_daily_events.dur + excluded.dur
    ), r as (
      insert into analytics_raw_requests (app_id, device_id, events, first_at, last_at) select app, dev, raw, first_at, last_at from claimed where raw is not null order by i
${has.drops ? sql`
    ), dr as (
      insert into analytics_drops (app_id, day, kind, count)
      select c.app, c.day, x.kind, sum(x.n)::int from claimed c join jsonb_to_recordset(${drops}::jsonb) as x(i int, kind text, n int) on x.i = c.i
      group by c.app, c.day, x.kind order by c.app, c.day, x.kind
      on conflict (app_id, day, kind) do update set count = analytics_drops.count + excluded.count
` : sql.empty()}
${has.views ? sql`
    ), vn as (
      select c.app, x.n, x.d, sum(x.v) as v, sum(x.du) as du,
        exists (select 1 from analytics_daily_views o where o.app_id = c.app and o.view = x.n and o.day = x.d) as known
      from claimed c join jsonb_to_recordset(${views}::jsonb) as x(i int, n text, d text, v float8, du float8) on x.i = c.i group by c.app, x.n, x.d
    ), vw as (
      -- Past the day's cap of distinct views only known ones count; new ones are taken in name order up to the cap.
      insert into analytics_daily_views (app_id, view, day, visits, duration)
      select app, n, d, v, du from (
        select vn.*, row_number() over (partition by app, d, known order by n) as rn,
          (select count(*) from analytics_daily_views o where o.app_id = vn.app and o.day = vn.d) as have from vn
      ) z where known or have + rn <= ${MAX_VIEWS_PER_DAY} order by app, n, d
      on conflict (app_id, view, day) do update set visits = analytics_daily_views.visits + excluded.visits, duration = analytics_daily_views.duration + excluded.duration
` : sql.empty()}
    )
    select i from claimed`;
}
