import { sql } from 'drizzle-orm';
import type { DropKind } from '../../domain/constants';
import { dayIn, isInternal, VIEW_KEY } from '../../domain/rules';
import { MAX_VIEWS_PER_DAY } from '../../domain/views';
import type { Db } from '../../../server/db/client';
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

/** The statement's JSON parameters: one row per request, and its events, raw rows, drops and views tagged with the request's index. */
function parameters(writes: Write[]) {
  const req: unknown[] = [];
  const ev: unknown[] = [];
  const raw: unknown[] = [];
  const drops: unknown[] = [];
  const views: unknown[] = [];
  writes.forEach((w, i) => {
    req.push({ i, app: w.app.id, hash: w.hash, dev: w.deviceId, at: w.at.toISOString(), day: w.day, mon: w.day.slice(0, 7), b: w.begin, dur: w.duration, metrics: w.metrics, details: w.details });
    const all = [...w.events, ...w.internal];
    for (const r of dailyRows(w.app, all)) ev.push({ i, ...r });
    all.forEach((e, j) => raw.push({ i, j, k: e.key, c: e.count, su: e.sum, du: e.dur, seg: Object.keys(e.segmentation).length ? e.segmentation : null, at: e.at.toISOString() }));
    for (const [kind, n] of w.drops) drops.push({ i, kind, n });
    for (const r of viewRows(w.app, w.internal)) views.push({ i, ...r });
  });
  return [req, ev, raw, drops, views].map((rows) => JSON.stringify(rows));
}

/**
 * Writes a batch of requests as one statement (group commit): every request's retry hash is
 * claimed and every other write takes its rows from the claims, so a retry (even one in the same
 * batch) changes nothing. Raw rows go in one multi-row insert; each aggregate row (device, day,
 * event/segment value, drop kind, view) gets one upsert per batch, summed over the batch, in key
 * order, so concurrent batches lock rows in the same order and cannot deadlock. A one-request batch
 * is the same statement. Answers the indexes of the requests that were new.
 */
export async function writeBatch(db: Db, writes: Write[]): Promise<Set<number>> {
  if (writes.length === 0) return new Set();
  const [req, ev, raw, drops, views] = parameters(writes);
  const result = (await db.execute(sql`
    with req as (
      select * from jsonb_to_recordset(${req}::jsonb) as x(i int, app uuid, hash text, dev text, at timestamptz, day text, mon text, b boolean, dur float8, metrics jsonb, details jsonb)
    ), claim as (
      insert into analytics_request_hashes (app_id, hash) select distinct app, hash from req order by app, hash on conflict do nothing returning app_id, hash
    ), claimed as (
      select distinct on (r.app, r.hash) r.* from req r join claim c on c.app_id = r.app and c.hash = r.hash order by r.app, r.hash, r.i
    ), dm as (
      select c.app, c.dev, jsonb_object_agg(kv.key, kv.value order by c.i) as m from claimed c cross join lateral jsonb_each(c.metrics) kv group by c.app, c.dev
    ), dd as (
      select c.app, c.dev, jsonb_object_agg(kv.key, kv.value order by c.i) as m from claimed c cross join lateral jsonb_each(c.details) kv group by c.app, c.dev
    ), devs as (
      select app, dev, (array_agg(at order by i))[1] as first_at, max(at) as last_at, (count(*) filter (where b))::int as begins, min(i) filter (where b) as first_begin, sum(dur) as dur
      from claimed group by app, dev
    ), u as (
      insert into analytics_app_users (app_id, device_id, first_seen_at, last_seen_at, sessions, total_duration, metrics, details)
      select d.app, d.dev, d.first_at, d.last_at, d.begins, d.dur, coalesce(dm.m, '{}'::jsonb), coalesce(dd.m, '{}'::jsonb)
      from devs d left join dm on dm.app = d.app and dm.dev = d.dev left join dd on dd.app = d.app and dd.dev = d.dev order by d.app, d.dev
      on conflict (app_id, device_id) do update set
        last_seen_at = greatest(analytics_app_users.last_seen_at, excluded.last_seen_at),
        sessions = analytics_app_users.sessions + excluded.sessions,
        total_duration = analytics_app_users.total_duration + excluded.total_duration,
        metrics = analytics_app_users.metrics || excluded.metrics,
        details = analytics_app_users.details || excluded.details
      returning app_id, device_id, sessions
    ), m as (
      insert into analytics_monthly_devices (app_id, month, device_id) select distinct app, mon, dev from claimed order by app, mon, dev on conflict do nothing
    ), s as (
      -- A new user: the device had no session before this batch, counted on the day of its first begin in it.
      insert into analytics_daily_sessions (app_id, day, sessions, new_users, duration)
      select c.app, c.day, (count(*) filter (where c.b))::int, (count(*) filter (where c.i = d.first_begin and u.sessions = d.begins))::int, sum(c.dur)
      from claimed c join devs d on d.app = c.app and d.dev = c.dev join u on u.app_id = c.app and u.device_id = c.dev
      where c.b or c.dur > 0 group by c.app, c.day order by c.app, c.day
      on conflict (app_id, day) do update set
        sessions = analytics_daily_sessions.sessions + excluded.sessions,
        new_users = analytics_daily_sessions.new_users + excluded.new_users,
        duration = analytics_daily_sessions.duration + excluded.duration
    ), e as (
      insert into analytics_daily_events (app_id, event_key, day, segment, value, count, sum, dur)
      select c.app, x.k, x.d, x.s, x.v, sum(x.c), sum(x.su), sum(x.du) from claimed c join jsonb_to_recordset(${ev}::jsonb) as x(i int, k text, d text, s text, v text, c float8, su float8, du float8) on x.i = c.i
      group by c.app, x.k, x.d, x.s, x.v order by c.app, x.k, x.d, x.s, x.v
      on conflict (app_id, event_key, day, segment, value) do update set
        count = analytics_daily_events.count + excluded.count,
        sum = analytics_daily_events.sum + excluded.sum,
        dur = analytics_daily_events.dur + excluded.dur
    ), r as (
      insert into analytics_raw_events (app_id, device_id, key, count, sum, dur, segmentation, occurred_at)
      select c.app, c.dev, x.k, x.c, x.su, x.du, x.seg, x.at from claimed c join jsonb_to_recordset(${raw}::jsonb) as x(i int, j int, k text, c float8, su float8, du float8, seg jsonb, at timestamptz) on x.i = c.i
      order by c.i, x.j
    ), dr as (
      insert into analytics_drops (app_id, day, kind, count)
      select c.app, c.day, x.kind, sum(x.n)::int from claimed c join jsonb_to_recordset(${drops}::jsonb) as x(i int, kind text, n int) on x.i = c.i
      group by c.app, c.day, x.kind order by c.app, c.day, x.kind
      on conflict (app_id, day, kind) do update set count = analytics_drops.count + excluded.count
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
    )
    select i from claimed`)) as unknown as { rows: { i: number }[] };
  // Both drivers answer { rows }; the generic database type does not say so.
  return new Set(result.rows.map((row) => Number(row.i)));
}
