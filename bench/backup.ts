/**
 * Backups at size for `npm run bench`: a tenant of BENCH_BACKUP_EVENTS (1,000,000) raw events, with
 * the aggregates and app users such a tenant has, backed up to a folder store and restored into
 * itself, on PGlite and (with DATABASE_URL) on a scratch PostgreSQL database. Prints seconds,
 * the archive's size and the process's peak resident memory above its level just before, each
 * against a baseline run in the same place:
 * - backup: the same rows read by the same cursor statements in the same snapshot, thrown away
 *   (the database's share of a backup; the archive adds spooling, hashing, tar and gzip, the store);
 * - restore: the same replacement (same locks and deletes) with the rows inserted by
 *   INSERT … SELECT from copies already in the database (the database's share of a restore; the
 *   product adds reading, verifying and sending the archive's JSON).
 * Each product run is repeated with a full collection forced every COLLECT_MS: what it holds, apart
 * from garbage awaiting the collector. The app is started again before each measured run, so
 * PGlite's thread (whose memory counts in this process's and, once grown, stays) starts from what a
 * started server has. The restored tenant is checked against the one backed up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'drizzle-orm';
import type { Config } from '../server/config';
import { benchApp, type SignIn } from './ingest';
import { benchPostgresUrl, onScratchPostgres } from './scratch';
import type * as Product from './product';

type Kit = Pick<typeof Product, 'buildApp' | 'takeBackup' | 'backupOf' | 'fetchVerified' | 'loadTenantArchive' | 'folderStore' | 'discard' | 'TENANT_TABLES' | 'tenantRowsSql'>;
type App = Awaited<ReturnType<Kit['buildApp']>>;
type Db = App['database']['db'];

const EVENTS = Number(process.env.BENCH_BACKUP_EVENTS ?? 1_000_000);
const EVENTS_PER_REQUEST = 10;
const REQUESTS = Math.ceil(EVENTS / EVENTS_PER_REQUEST);
const DEVICES = Math.max(1, Math.round(REQUESTS / 2));
const DAYS = 30;
const KEYS = 10;
/** Rows a cursor hands over at a time, as writeTenantArchive fetches them. */
const FETCH_ROWS = 2_000;
const SAMPLE_MS = 20;
/** The interval of the full collections in the runs that measure what an operation holds. */
const COLLECT_MS = 250;
const LIMIT_MB = 100;

// A full collection before each measured run, so garbage of the run before is not freed inside it.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const mb = (bytes: number) => bytes / 1_048_576;

interface Measured<T> {
  value: T;
  seconds: number;
  /** Peak resident memory of the process during the run, above its level just before (bytes). */
  rise: number;
}

/**
 * Times `work` and samples the process's resident memory every SAMPLE_MS while it runs. With
 * `collectMs`, a full collection runs first at each such interval: what the run holds, without the
 * garbage V8 collects when it sees fit (a slower run, for memory only).
 */
async function measured<T>(work: () => Promise<T>, collectMs?: number): Promise<Measured<T>> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const before = process.memoryUsage().rss;
  let peak = before;
  let collected = performance.now();
  const timer = setInterval(() => {
    if (collectMs) {
      if (performance.now() - collected < collectMs) return;
      gc();
      collected = performance.now();
    }
    peak = Math.max(peak, process.memoryUsage().rss);
  }, SAMPLE_MS);
  const started = performance.now();
  try {
    const value = await work();
    const seconds = (performance.now() - started) / 1000;
    if (collectMs) gc();
    return { value, seconds, rise: Math.max(peak, process.memoryUsage().rss) - before };
  } finally {
    clearInterval(timer);
  }
}

/**
 * The tenant's data as ingestion leaves it after a month: REQUESTS raw requests of ten segmented
 * events each from DEVICES devices over the last DAYS days (within the default 90-day retention),
 * the day rows of KEYS event keys with three segments, sessions, views, this month's and last
 * month's devices, the app users, and a day of retry hashes.
 */
async function seed(app: App, appId: string): Promise<void> {
  const a = `'${appId}'::uuid`;
  const step = (DAYS * 86_400) / REQUESTS;
  const statements = [
    `insert into analytics_raw_requests (app_id, device_id, events, first_at, last_at, received_at)
      select ${a}, 'device-' || (i % ${DEVICES}), ev.events, t.at, t.at + interval '9 seconds', t.at + interval '11 seconds'
      from generate_series(1, ${REQUESTS}) i
      cross join lateral (select now() - make_interval(secs => i * ${step}) - interval '10 seconds' as at) t
      cross join lateral (
        select jsonb_agg(jsonb_build_object(
          'key', 'event_' || ((i + j) % ${KEYS}),
          'count', 1 + (i + j) % 3,
          'sum', case when j % 2 = 0 then round(((i * 7 + j) % 1000) / 10.0, 1) end,
          'dur', case when j % 3 = 0 then ((i + j) % 120)::float8 end,
          'segmentation', jsonb_build_object('plan', (array['free','pro','team'])[1 + (i + j) % 3], 'platform', case when i % 2 = 0 then 'ios' else 'android' end, 'country', (array['US','DE','FR','BR','IN','JP','GB','ES','IT','CA'])[1 + i % 10]),
          'timestamp', to_char((t.at + make_interval(secs => j)) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        ) order by j) as events
        from generate_series(0, ${EVENTS_PER_REQUEST - 1}) j
      ) ev`,
    `insert into analytics_events (app_id, key) select ${a}, 'event_' || k from generate_series(0, ${KEYS - 1}) k`,
    `insert into analytics_segment_values (app_id, event_key, segment, value)
      select ${a}, 'event_' || k, s.segment, s.value from generate_series(0, ${KEYS - 1}) k,
      (select 'plan' as segment, unnest(array['free','pro','team']) as value union all select 'platform', unnest(array['ios','android'])
       union all select 'country', unnest(array['US','DE','FR','BR','IN','JP','GB','ES','IT','CA'])) s`,
    `insert into analytics_daily_events (app_id, event_key, day, segment, value, count, sum, dur)
      select ${a}, e.key, d.day, s.segment, s.value, 100 + (d.n * 7 + length(s.value)) % 900, 250.5 + d.n, 60.0 * d.n
      from analytics_events e, (select n, to_char(now() - make_interval(days => n), 'YYYY-MM-DD') as day from generate_series(0, ${DAYS - 1}) n) d,
      (select '' as segment, '' as value union all select segment, value from analytics_segment_values where app_id = ${a} and event_key = 'event_0') s
      where e.app_id = ${a}`,
    `insert into analytics_daily_sessions (app_id, day, sessions, new_users, duration)
      select ${a}, to_char(now() - make_interval(days => n), 'YYYY-MM-DD'), 3000 + n * 11, 400 + n, 180000.0 + n from generate_series(0, ${DAYS - 1}) n`,
    `insert into analytics_daily_views (app_id, view, day, visits, duration)
      select ${a}, v, to_char(now() - make_interval(days => n), 'YYYY-MM-DD'), 900 + n, 5400.0 + n
      from generate_series(0, ${DAYS - 1}) n, unnest(array['Home','Search','Product','Cart','Settings']) v`,
    `insert into analytics_app_users (app_id, device_id, first_seen_at, last_seen_at, sessions, total_duration, metrics, details)
      select ${a}, 'device-' || d, now() - make_interval(days => ${DAYS}) + make_interval(secs => d % 86400), now() - make_interval(secs => d * 13 % 86400), 1 + d % 40, (d % 5000)::float8,
        jsonb_build_object('_os', case when d % 2 = 0 then 'iOS' else 'Android' end, '_os_version', (14 + d % 4)::text, '_device', (array['Pixel 8','iPhone 15','Galaxy S23','iPhone 13'])[1 + d % 4],
          '_app_version', '2.' || (d % 7) || '.0', '_resolution', '1080x2400', '_locale', (array['en_US','de_DE','fr_FR','pt_BR'])[1 + d % 4], '_carrier', 'Carrier ' || d % 20),
        case when d % 10 = 0 then jsonb_build_object('name', 'User ' || d, 'email', 'user' || d || '@example.com') else '{}'::jsonb end
      from generate_series(0, ${DEVICES - 1}) d`,
    `insert into analytics_monthly_devices (app_id, month, device_id)
      select ${a}, to_char(now(), 'YYYY-MM'), 'device-' || d from generate_series(0, ${DEVICES - 1}) d
      union all select ${a}, to_char(now() - interval '1 month', 'YYYY-MM'), 'device-' || d from generate_series(0, ${Math.floor((DEVICES * 3) / 5) - 1}) d`,
    `insert into analytics_request_hashes (app_id, hash, received_at)
      select ${a}, md5('request-' || i), now() - make_interval(secs => i * ${step}) from generate_series(1, ${Math.ceil(REQUESTS / DAYS)}) i`,
    // Statistics of the new rows, as autovacuum (PostgreSQL) or the hourly maintenance (PGlite) keeps them.
    'vacuum analyze',
  ];
  for (const statement of statements) await app.database.rows(statement);
}

const rowsOf = async <T>(db: Db, query: string): Promise<T[]> => ((await db.execute(sql.raw(query))) as unknown as { rows: T[] }).rows;

/** The backup's baseline: every table's rows read as the archive reads them, in one snapshot, and dropped. */
async function readOnly(kit: Kit, db: Db, tenantId: string): Promise<{ rows: number; bytes: number }> {
  return db.transaction(
    async (tx) => {
      let rows = 0;
      let bytes = 0;
      for (const spec of kit.TENANT_TABLES) {
        await tx.execute(sql.raw(`declare bench_part no scroll cursor for select row_to_json(x)::text as r from ${kit.tenantRowsSql(spec, tenantId)} order by ${spec.orderBy.map((c) => `x.${c}`).join(', ')}`));
        for (;;) {
          const batch = await rowsOf<{ r: string }>(tx, `fetch ${FETCH_ROWS} from bench_part`);
          if (batch.length === 0) break;
          rows += batch.length;
          for (const b of batch) bytes += b.r.length + 1;
        }
        await tx.execute(sql.raw('close bench_part'));
      }
      return { rows, bytes };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

const copyOf = (table: string) => `bench_copy_${table}`;
const copied = (kit: Kit) => kit.TENANT_TABLES.filter((spec) => spec.scope !== 'self');

/** Copies of the tenant's rows (the restore baseline's source), in the archive's order. */
async function copyTenant(kit: Kit, app: App, tenantId: string): Promise<void> {
  for (const spec of copied(kit)) {
    await app.database.rows(`drop table if exists ${copyOf(spec.table)}`);
    await app.database.rows(`create table ${copyOf(spec.table)} as select x.* from ${kit.tenantRowsSql(spec, tenantId)} order by ${spec.orderBy.map((c) => `x.${c}`).join(', ')}`);
  }
}

/** The restore's baseline: the tenant's data replaced as loadTenantArchive does it, its rows taken from the copies. */
async function insertFromCopies(kit: Kit, db: Db, tenantId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const tenant = `'${tenantId}'`;
    await tx.execute(sql.raw(`select id from analytics_tenants where id = ${tenant} for update`));
    await tx.execute(sql.raw(`select id from analytics_apps where tenant_id = ${tenant} for update`));
    await tx.execute(sql.raw(`delete from analytics_apps where tenant_id = ${tenant}`));
    for (const spec of [...kit.TENANT_TABLES].reverse()) if (spec.scope === 'tenant') await tx.execute(sql.raw(`delete from ${spec.table} where tenant_id = ${tenant}`));
    let rows = 0;
    for (const spec of copied(kit)) {
      const columns = (await rowsOf<{ name: string }>(tx, `select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = '${spec.table}' order by ordinal_position`))
        .filter((c) => !(spec.skip ?? []).includes(c.name))
        .map((c) => `"${c.name}"`);
      const result = (await tx.execute(sql.raw(`insert into ${spec.table} (${columns.join(', ')}) select ${columns.join(', ')} from ${copyOf(spec.table)}`))) as unknown as { rowCount?: number | null; affectedRows?: number };
      rows += result.rowCount ?? result.affectedRows ?? 0;
    }
    return rows;
  });
}

/** What the tenant holds: rows per table and the raw events inside its raw requests. */
async function contents(kit: Kit, app: App, tenantId: string): Promise<string> {
  const counts: string[] = [];
  for (const spec of kit.TENANT_TABLES) {
    const [row] = await app.database.rows<{ n: number }>(`select count(*)::int as n from ${kit.tenantRowsSql(spec, tenantId)}`);
    counts.push(`${spec.table}:${row?.n ?? 0}`);
  }
  const raw = kit.TENANT_TABLES.find((s) => s.table === 'analytics_raw_requests');
  if (!raw) return counts.join(' ');
  const [events] = await app.database.rows<{ n: number }>(`select coalesce(sum(jsonb_array_length(x.events)), 0)::int as n from ${kit.tenantRowsSql(raw, tenantId)}`);
  return `${counts.join(' ')} events:${events?.n ?? 0}`;
}

interface Line {
  name: string;
  ours: Measured<unknown>;
  base: Measured<unknown>;
  held: Measured<unknown>;
  note: string;
}

function print(line: Line): void {
  const under = mb(line.ours.rise) < LIMIT_MB ? 'yes' : 'NO';
  console.log(
    `${line.name.padEnd(24)}${line.ours.seconds.toFixed(1).padStart(7)}${line.base.seconds.toFixed(1).padStart(8)}${(line.ours.seconds / line.base.seconds).toFixed(2).padStart(7)}` +
      `${mb(line.ours.rise).toFixed(0).padStart(9)}${mb(line.base.rise).toFixed(0).padStart(9)}${mb(line.held.rise).toFixed(0).padStart(9)}${under.padStart(12)}   ${line.note}`,
  );
}

/** The case on one database: seed, then each baseline and each product run on a freshly started app. */
async function onDatabase(kit: Kit, label: string, config: Config, signIn: SignIn): Promise<void> {
  let app = await kit.buildApp(config);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const appKey = await benchApp(app, url, await signIn(url, app));
  const [ids] = await app.database.rows<{ appId: string; tenantId: string; deploymentId: string }>(
    `select a.id as "appId", t.id as "tenantId", t.deployment_id as "deploymentId" from analytics_apps a join analytics_tenants t on t.id = a.tenant_id where a.key = '${appKey.replace(/'/g, "''")}'`,
  );
  if (!ids) throw new Error('the bench app has no tenant');
  const seeding = performance.now();
  await seed(app, ids.appId);
  const seeded = (performance.now() - seeding) / 1000;
  const before = await contents(kit, app, ids.tenantId);
  const restart = async () => {
    await app.close();
    app = await kit.buildApp(config);
  };
  const store = kit.folderStore(join(config.DATA_DIR, 'backups'));

  await restart();
  const readBase = await measured(() => readOnly(kit, app.database.db, ids.tenantId));
  const [{ id: backupId } = { id: '' }] = await app.database.rows<{ id: string }>(`insert into deployment_backups (deployment_id, kind) values ('${ids.deploymentId}', 'manual') returning id`);
  const takeBackup = () => kit.takeBackup(app.database.db, store, { deploymentId: ids.deploymentId, backupId }, app.database.snapshot);
  await restart();
  const backup = await measured(takeBackup);
  // Again with full collections every COLLECT_MS: what a backup holds (it writes the same key again).
  await restart();
  const backupHeld = await measured(takeBackup, COLLECT_MS);
  const taken = backupHeld.value;
  await app.database.rows(
    `update deployment_backups set status = 'completed', store_key = '${taken.storeKey}', size_bytes = ${taken.sizeBytes}, sha256 = '${taken.sha256}', taken_at = '${taken.takenAt}', completed_at = now() where id = '${backupId}'`,
  );

  await copyTenant(kit, app, ids.tenantId);
  await restart();
  const insertBase = await measured(() => insertFromCopies(kit, app.database.db, ids.tenantId));
  let verifySeconds = 0;
  const restoreBackup = async () => {
    const row = await kit.backupOf(app.database.db, ids.deploymentId, backupId);
    if (!row) throw new Error('the bench backup is gone');
    const started = performance.now();
    const verified = await kit.fetchVerified(store, row, ids.deploymentId);
    verifySeconds = (performance.now() - started) / 1000;
    try {
      return await kit.loadTenantArchive(app.database.db, verified, { tenantId: ids.tenantId });
    } finally {
      await kit.discard(verified.dir);
    }
  };
  // Each replacement leaves the rows it deleted behind: cleared, so every run starts where the baseline did.
  await app.database.rows('vacuum analyze');
  await restart();
  const restore = await measured(restoreBackup);
  const verified = verifySeconds;
  await app.database.rows('vacuum analyze');
  await restart();
  const restoreHeld = await measured(restoreBackup, COLLECT_MS);
  const after = await contents(kit, app, ids.tenantId);
  for (const spec of copied(kit)) await app.database.rows(`drop table ${copyOf(spec.table)}`);
  await app.close();

  console.log(`\n${label}: seeded in ${seeded.toFixed(0)} s; ${before}`);
  const rows = taken.manifest.tables.reduce((n, t) => n + t.rows, 0);
  print({ name: `backup on ${label}`, ours: backup, base: readBase, held: backupHeld, note: `archive ${mb(taken.sizeBytes).toFixed(1)} MB of ${mb(readBase.value.bytes).toFixed(0)} MB NDJSON, ${rows} rows` });
  const loaded = Object.values(restore.value).reduce((n, r) => n + r, 0);
  print({
    name: `restore on ${label}`,
    ours: restore,
    base: insertBase,
    held: restoreHeld,
    note: `fetch and verify ${verified.toFixed(1)} s, load ${(restore.seconds - verified).toFixed(1)} s; ${loaded} rows; restored = backed up: ${after === before ? 'yes' : `NO (${after})`}`,
  });
}

/**
 * Runs the backup case on PGlite (the config given, its own data directory) and, with
 * DATABASE_URL, on a scratch PostgreSQL database, with the compiled product's backup code.
 */
export async function backupCase(kit: Kit, given: Config, signIn: SignIn): Promise<void> {
  // The app starts five times a database: its start-up warnings once would be enough.
  const config: Config = { ...given, LOG_LEVEL: 'error' };
  console.log(`\nbackups: a tenant of ${EVENTS.toLocaleString('en-US')} raw events (${REQUESTS.toLocaleString('en-US')} requests × ${EVENTS_PER_REQUEST}, ${DEVICES.toLocaleString('en-US')} devices, ${DAYS} days)`);
  console.log('backup base = the same rows read by the same cursors, thrown away; restore base = the same replacement inserting from copies in the database');
  console.log(`rise = peak resident memory of the process above its level just before (sampled every ${SAMPLE_MS} ms; PGlite's thread counts);`);
  console.log(`held = the same in another run with a full collection every ${COLLECT_MS} ms (what the operation holds, not garbage awaiting the collector)`);
  console.log(`${'case'.padEnd(24)}${'s'.padStart(7)}${'base s'.padStart(8)}${'ratio'.padStart(7)}${'rise MB'.padStart(9)}${'base MB'.padStart(9)}${'held MB'.padStart(9)}${`rise < ${LIMIT_MB}`.padStart(12)}`);
  const dir = mkdtempSync(join(tmpdir(), 'beacon-bench-backup-'));
  try {
    await onDatabase(kit, 'PGlite', { ...config, DATA_DIR: dir }, signIn);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const databaseUrl = benchPostgresUrl();
  if (!databaseUrl) return;
  const pgDir = mkdtempSync(join(tmpdir(), 'beacon-bench-backup-'));
  try {
    await onScratchPostgres(databaseUrl, (url) => onDatabase(kit, 'PostgreSQL', { ...config, DATA_DIR: pgDir, DATABASE_URL: url }, signIn));
  } finally {
    rmSync(pgDir, { recursive: true, force: true });
  }
}
