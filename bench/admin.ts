/**
 * The admin lists under load: 100,000 users and 100,000 audit rows; first page, a deep
 * page, each sortable column, a search; each against a bare route sending the same bytes. Then the
 * streamed CSV export of 100,000 rows, with the process's peak memory while it streams.
 */
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import Fastify from 'fastify';
import { seedFirstAdmin } from '../server/db/seed';
import { USER_SORT_FIELDS } from '../server/services/adminUsers';
import { LOG_SORT_FIELDS } from '../server/services/adminLogs';
import { encodeCursor } from '../server/routes/admin/listing';

const ROWS = Number(process.env.BENCH_ADMIN_ROWS ?? 100_000);
const ADMIN = { email: 'bench-admin@example.com', password: 'Bench#Admin-2026' };

export type Measure = (url: string, target: { name: string; method: 'GET'; path: string; headers?: Record<string, string> }) => Promise<{ rps: number; p99: number; mean: number }>;

const q = (o: Record<string, unknown>) =>
  Object.entries(o)
    .map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`)
    .join('&');

async function seed(app: FastifyInstance): Promise<void> {
  await app.database.rows(`insert into users (email, first_name, last_name, created_at)
    select 'user' || i || '@bench.example.com', (array['Ada','Grace','Alan','Edsger','Barbara','Ken'])[1 + i % 6] || i % 97, 'Bench' || i % 1013,
           now() - (i || ' seconds')::interval from generate_series(1, ${ROWS}) as i`);
  await app.database.rows(`insert into audit_logs (at, actor_id, actor_email, action, target_type, target_id, ip, before, after)
    select now() - (i || ' seconds')::interval, null, 'user' || (i % 5000) || '@bench.example.com',
           (array['user.signIn','user.update','company.update','invitation.create','member.remove'])[1 + i % 5],
           (array['user','user','company','invitation','member'])[1 + i % 5], gen_random_uuid()::text, '10.0.' || (i % 250) || '.1',
           jsonb_build_object('name', 'before ' || i), jsonb_build_object('name', 'after ' || i)
    from generate_series(1, ${ROWS}) as i`);
  // Statistics of the new rows, as autovacuum (PostgreSQL) or the hourly maintenance (PGlite) keeps them.
  await app.database.rows('vacuum analyze');
}

/** The cursor of the row just before `row` in the list's default order (users by id, logs newest first), as the server writes it. */
async function rowBefore(app: FastifyInstance, resource: 'users' | 'logs', row: number): Promise<string> {
  const query =
    resource === 'users'
      ? `select id::text as value, id::text as id from users order by id offset ${row - 1} limit 1`
      : `select at::text as value, id::text as id from audit_logs order by at desc, id desc offset ${row - 1} limit 1`;
  const [key] = await app.database.rows<{ value: string; id: string }>(query);
  if (!key) throw new Error(`${resource}: no row ${row}`);
  return encodeCursor(key);
}

async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  const cookie = /beacon_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0];
  if (!cookie) throw new Error(`admin sign-in failed: ${res.status}`);
  return cookie;
}

/** Peak resident memory of this process while `work` runs, sampled every 5 ms. */
async function peakMemory<T>(work: () => Promise<T>): Promise<{ value: T; peakRss: number; startRss: number }> {
  const startRss = process.memoryUsage().rss;
  let peakRss = startRss;
  const timer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);
  try {
    const value = await work();
    return { value, peakRss: Math.max(peakRss, process.memoryUsage().rss), startRss };
  } finally {
    clearInterval(timer);
  }
}

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

export async function adminCases(app: FastifyInstance, url: string, measure: Measure): Promise<void> {
  const seeded = Date.now();
  await seedFirstAdmin(app.database.db, ADMIN);
  await seed(app);
  const cookie = await signIn(url);
  console.log(`\nadmin lists: ${ROWS.toLocaleString('en-US')} users and ${ROWS.toLocaleString('en-US')} audit rows (seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s)`);
  console.log(`${'list'.padEnd(40)}${'bytes'.padStart(8)}${'req/s'.padStart(9)}${'base req/s'.padStart(12)}${'ratio'.padStart(7)}${'mean ms'.padStart(9)}${'p99 ms'.padStart(8)}`);

  const cases: { name: string; path: string }[] = [];
  for (const [resource, fields, first] of [
    ['users', USER_SORT_FIELDS, ['_id', 'ASC']],
    ['logs', LOG_SORT_FIELDS, ['at', 'DESC']],
  ] as const) {
    cases.push({ name: `${resource} first page`, path: `/api/v1/admin/${resource}?${q({ sort: first, range: [0, 9] })}` });
    cases.push({ name: `${resource} deep page (row ${ROWS - 10})`, path: `/api/v1/admin/${resource}?${q({ sort: first, range: [ROWS - 10, ROWS - 1] })}` });
    // The same page as the pager reaches it: by keyset, after the previous page's last row.
    const after = await rowBefore(app, resource, ROWS - 10);
    cases.push({ name: `${resource} deep page by keyset`, path: `/api/v1/admin/${resource}?${q({ sort: first, range: [ROWS - 10, ROWS - 1] })}&after=${after}` });
    cases.push({ name: `${resource} last page (before=end)`, path: `/api/v1/admin/${resource}?${q({ sort: first, range: [ROWS - 10, ROWS - 1] })}&before=end` });
    for (const field of fields) cases.push({ name: `${resource} sort ${field} desc`, path: `/api/v1/admin/${resource}?${q({ sort: [field, 'DESC'], range: [0, 9] })}` });
    cases.push({ name: `${resource} search`, path: `/api/v1/admin/${resource}?${q({ filter: { q: resource === 'users' ? 'user4242' : 'user42@' }, range: [0, 9] })}` });
  }

  for (const c of cases) {
    const sample = await fetch(`${url}${c.path}`, { headers: { cookie } });
    const bytes = await sample.text();
    if (sample.status !== 200) throw new Error(`${c.name}: ${sample.status} ${bytes}`);
    const range = sample.headers.get('content-range') ?? '';
    const bare = Fastify();
    await bare.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
    bare.get(c.path.split('?')[0] ?? '/', async (_req, reply) => reply.header('content-range', range).type('application/json; charset=utf-8').send(bytes));
    const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });
    const base = await measure(bareUrl, { name: c.name, method: 'GET', path: c.path });
    const ours = await measure(url, { name: c.name, method: 'GET', path: c.path, headers: { cookie } });
    await bare.close();
    console.log(
      `${c.name.padEnd(40)}${String(bytes.length).padStart(8)}${ours.rps.toFixed(0).padStart(9)}${base.rps.toFixed(0).padStart(12)}${(ours.rps / base.rps).toFixed(3).padStart(7)}` +
        `${ours.mean.toFixed(1).padStart(9)}${ours.p99.toFixed(1).padStart(8)}`,
    );
  }

  for (const resource of ['users', 'logs']) {
    const started = Date.now();
    const { value: bytes, peakRss, startRss } = await peakMemory(async () => {
      const res = await fetch(`${url}/api/v1/admin/${resource}/export?format=csv`, { headers: { cookie } });
      let total = 0;
      let lines = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        total += chunk.length;
        for (const b of chunk) if (b === 10) lines += 1;
      }
      return { total, lines };
    });
    console.log(
      `export ${resource} CSV: ${(bytes.lines - 1).toLocaleString('en-US')} rows, ${mb(bytes.total)} in ${((Date.now() - started) / 1000).toFixed(2)} s; ` +
        `process RSS ${mb(startRss)} → peak ${mb(peakRss)} (+${mb(peakRss - startRss)})`,
    );
  }
}
