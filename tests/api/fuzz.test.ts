import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/domain/errors';
import { analyticsServer, createAnalyticsApp, hit } from '../support/analytics';
import { GOOD_PASSWORD, sessionCookie, signUp } from '../support/auth';
import { TINY_PNG } from '../support/multipart';
import { addMember, loadCatalogue, orderBody, pay, postOrder } from '../support/orders';
import { createTestApp, type TestApp } from '../support/testApp';
import { SoftAuthenticator } from '../support/webauthn';

/**
 * The whole API against generated input: every operation of the OpenAPI document and the
 * ingestion endpoints, with requests built by fast-check from each route's schemas, as a stranger,
 * a viewer of the victim company, an admin of another company and an account nobody verified.
 * The victim has what the money and account routes act on: a paid transaction (invoice, receipt),
 * a card on file, a passkey and usage. Asserted: no answer >= 500, every 4xx the error envelope
 * (ingestion: Countly's `{ result }`), a refused request changes no table, and health answers
 * throughout. FUZZ_SEED and FUZZ_RUNS change the walk.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 28);
/** Requests per operation and identity: 160 operations × 4 identities × 22 ≈ 14,000, plus ingestion. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 22);
const INGEST_RUNS = Number(process.env.FUZZ_INGEST_RUNS ?? 150);


interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  format?: string;
  default?: unknown;
  additionalProperties?: boolean | JsonSchema;
}
interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface Attempt {
  identity: string;
  method: Method;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}
interface Finding {
  what: string;
  attempt: Attempt;
  status: number;
  answer: string;
}

// Strings that broke or could break something: text PostgreSQL cannot store, invalid Unicode,
// numbers past every range, JSON in a string, markup, paths, overlong text.
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  '\uDBFF\uDFFF',
  '💥🚀'.repeat(50),
  '\u202Eevil\u202C',
  'Ǆ̈̀ͅ',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e308',
  '-1e308',
  '1e-400',
  '9007199254740993',
  '-0',
  '0x1F',
  'true',
  'null',
  'undefined',
  '[]',
  '{}',
  '{"$gt":""}',
  '{"a":{"b":[1,{"c":[null,{"d":1e308}]}]}}',
  '__proto__',
  'constructor',
  '<script>alert(1)</script>',
  "' OR '1'='1' --",
  '../../../../etc/passwd',
  '%00',
  '%E0%A4%A',
  '2026-02-30T25:61:00Z',
  '0000-00-00',
  'a'.repeat(300),
  'b'.repeat(70_000),
  'x@y',
  'root@example.com',
];
const NASTY_NUMBERS = [0, -1, 1, 1.5, -0.000001, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e308, -1e308, 5e-324, Number.MAX_VALUE];

const nastyString = fc.constantFrom(...NASTY_STRINGS);
const anyString = fc.oneof({ weight: 3, arbitrary: nastyString }, { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
const nestedJson = fc.constantFrom<unknown>(
  JSON.parse(`${'['.repeat(200)}1${']'.repeat(200)}`) as unknown,
  { a: { b: { c: { d: { e: { f: ['deep', { g: null }] } } } } } },
  Array.from({ length: 2_000 }, (_, i) => i),
  { __proto__: null, constructor: { prototype: { isAdmin: true } } },
);
/** A value of any type, hostile more often than not. */
const fuzzValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: anyString },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(...NASTY_NUMBERS) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(true, false, null, [], {}) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: nestedJson },
);

/** Ids that exist: the victim's first (other tenants' ids for the viewer and the rival admin), then the rival's. */
interface Pools {
  ids: string[];
  byName: Record<string, string[]>;
}

function schemaArb(schema: JsonSchema | undefined, pools: Pools, name: string, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fuzzValue;
  const shaped = shapedArb(schema, pools, name, depth);
  return fc.oneof({ weight: 3, arbitrary: shaped }, { weight: 1, arbitrary: fuzzValue });
}

/** A value of the schema's shape (possibly still wrong inside, since children are fuzzed too). */
function shapedArb(schema: JsonSchema, pools: Pools, name: string, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union?.length) return fc.oneof(...union.map((s) => shapedArb(s, pools, name, depth)));
  if (schema.allOf?.length) return shapedArb(Object.assign({}, ...schema.allOf) as JsonSchema, pools, name, depth);
  const type = [schema.type ?? 'any'].flat().find((t) => t !== 'null') ?? 'null';
  switch (type) {
    case 'string':
      return stringArb(schema, pools, name);
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? -1_000;
      const max = schema.maximum ?? 1_000;
      return fc.oneof(fc.integer({ min: Math.max(min, -1e9), max: Math.min(max, 1e9) }), fc.constantFrom(min - 1, max + 1, 1e308, -1e308));
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schemaArb(schema.items, pools, name, depth + 1), { maxLength: 3 });
    case 'object':
      return objectArb(schema, pools, depth);
    default:
      return fuzzValue;
  }
}

function stringArb(schema: JsonSchema, pools: Pools, name: string): fc.Arbitrary<unknown> {
  const known = pools.byName[name];
  if (known?.length || /id$/i.test(name) || schema.format === 'uuid') return fc.constantFrom(...(known?.length ? known : pools.ids), randomUUIDFor(name));
  if (schema.format === 'email' || /email/i.test(name)) return fc.constantFrom('fuzz@example.com', 'victim@example.com', 'viewer@example.com', 'a@b', `${'x'.repeat(250)}@example.com`);
  if (schema.format === 'date-time' || /date|from|to|until|at$/i.test(name)) return fc.constantFrom('2026-01-01', '2026-11-26T00:00:00.000Z', '1970-01-01', '9999-12-31T23:59:59Z', '+275760-09-13T00:00:00.001Z', 'yesterday', '-Infinity', 'NaN', '1e308');
  return fc.string({ maxLength: Math.min(schema.maxLength ?? 24, 24) });
}

/** A fixed uuid per name: reproducible, and certainly nobody's. */
const randomUUIDFor = (name: string) => `00000000-0000-4000-8000-${(name.length % 10).toString().padStart(12, '0')}`;

/** Extra keys a client should never get to set. */
const EXTRA_KEYS = fc.constantFrom('__proto__', 'constructor', 'isAdmin', 'role', 'companyId', 'company', '_id', 'id', 'status', 'price', 'userId', 'extra');

function objectArb(schema: JsonSchema, pools: Pools, depth: number): fc.Arbitrary<unknown> {
  const props = schema.properties ?? {};
  const model = Object.fromEntries(Object.entries(props).map(([key, s]) => [key, schemaArb(s, pools, key, depth + 1)]));
  const required = (schema.required ?? []).filter((k) => k in props);
  const record = fc.oneof({ weight: 3, arbitrary: fc.record(model, { requiredKeys: required }) }, { weight: 1, arbitrary: fc.record(model, { requiredKeys: [] }) });
  // Object.fromEntries defines `__proto__` as an own key, so JSON.stringify sends it.
  return fc
    .tuple(record, fc.option(fc.array(fc.tuple(EXTRA_KEYS, fuzzValue), { maxLength: 3 }), { freq: 3 }))
    .map(([obj, extras]) => Object.fromEntries([...Object.entries(obj as Record<string, unknown>), ...(extras ?? [])]));
}

/** Percent-encodes a path or query part; a lone surrogate goes as its (invalid) UTF-8 bytes. */
function encodePart(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? 'undefined';
  try {
    return encodeURIComponent(text);
  } catch {
    return [...text]
      .map((ch) => {
        const code = ch.charCodeAt(0);
        if (code >= 0xd800 && code <= 0xdfff) return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
        return encodeURIComponent(ch);
      })
      .join('');
  }
}

const BOUNDARY = '----beaconfuzz';
function multipartBody(fields: Record<string, unknown>, broken: boolean): Buffer {
  const parts = Object.entries(fields).map(([k, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${typeof v === 'string' ? v : JSON.stringify(v)}\r\n`);
  const file = Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="icon"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`), TINY_PNG, Buffer.from('\r\n')]);
  const text = Buffer.concat([Buffer.from(parts.join('')), file, Buffer.from(`--${BOUNDARY}--\r\n`)]);
  return broken ? text.subarray(0, Math.floor(text.length / 2)) : text;
}

/** How a body goes on the wire: mostly JSON, sometimes in a type the route does not take, or broken. */
type BodyForm = 'json' | 'json-top' | 'bad-json' | 'text' | 'form' | 'multipart' | 'multipart-broken' | 'none';
const bodyForm = fc.constantFrom<BodyForm>('json', 'json', 'json', 'json', 'json', 'json-top', 'bad-json', 'text', 'form', 'multipart', 'multipart-broken', 'none');

function encodeBody(form: BodyForm, body: unknown): { headers: Record<string, string>; payload?: string | Buffer } {
  const fields = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : { value: body };
  switch (form) {
    case 'json':
      return { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) ?? 'null' };
    case 'json-top':
      return { headers: { 'content-type': 'application/json; charset=utf-8' }, payload: JSON.stringify(fields.value ?? [body]) ?? '1e999' };
    case 'bad-json':
      return { headers: { 'content-type': 'application/json' }, payload: (JSON.stringify(body) ?? '{').slice(0, -1) };
    case 'text':
      return { headers: { 'content-type': 'text/plain' }, payload: JSON.stringify(body) ?? '' };
    case 'form':
      return { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: Object.entries(fields).map(([k, v]) => `${encodePart(k)}=${encodePart(v)}`).join('&') };
    case 'multipart':
    case 'multipart-broken':
      return { headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, payload: multipartBody(fields, form === 'multipart-broken') };
    case 'none':
      return { headers: {} };
  }
}

function operationArb(path: string, method: Method, op: Operation, pools: Pools): fc.Arbitrary<Omit<Attempt, 'identity'>> {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const pathArb = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, fc.oneof({ weight: 4, arbitrary: shapedArb(p.schema ?? {}, pools, p.name, 0) }, { weight: 1, arbitrary: fuzzValue })])));
  const queryArb = fc.record(Object.fromEntries(queryParams.map((p) => [p.name, schemaArb(p.schema, pools, p.name)])), { requiredKeys: [] });
  const extraQuery = fc.option(fc.constantFrom('__proto__=1', 'a[b]=c', 'x=1&x=2', 'api_key=secret&auth_token=secret', '%zz=%zz', `q=${'z'.repeat(5_000)}`), { freq: 4 });
  const jsonSchema = op.requestBody?.content['application/json']?.schema ?? op.requestBody?.content['multipart/form-data']?.schema;
  const bodyArb = op.requestBody ? fc.tuple(bodyForm, schemaArb(jsonSchema, pools, 'body')) : fc.constant<[BodyForm, unknown]>(['none', undefined]);
  return fc.tuple(pathArb, queryArb, extraQuery, bodyArb).map(([pathValues, query, extra, [form, body]]) => {
    const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => encodePart((pathValues as Record<string, unknown>)[name]));
    const pairs = Object.entries(query as Record<string, unknown>).map(([k, v]) => `${encodePart(k)}=${encodePart(v)}`);
    if (extra) pairs.push(extra);
    return { method, url: pairs.length ? `${url}?${pairs.join('&')}` : url, ...encodeBody(form, body) };
  });
}

/** One SDK request's parameters: the right shape mostly, any part hostile. */
function ingestParamsArb(pools: Pools): fc.Arbitrary<Record<string, unknown>> {
  const key = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...(pools.byName.app_key ?? [])) }, { weight: 1, arbitrary: anyString });
  const num = fc.oneof(fc.integer({ min: 0, max: 100 }), fc.constantFrom<unknown>(...NASTY_NUMBERS, 'NaN', 'Infinity', '1e308', null, '12'));
  const event = fc.record(
    { key: fc.oneof(fc.constantFrom('purchase', 'signup'), anyString), count: num, sum: num, dur: num, timestamp: num, segmentation: fc.oneof(fc.dictionary(fc.oneof(fc.constantFrom('plan', 'os'), anyString), fc.oneof(anyString, num), { maxKeys: 3 }), fuzzValue) },
    { requiredKeys: ['key'] },
  );
  const asJsonText = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: arb.map((v) => JSON.stringify(v)) }, { weight: 1, arbitrary: fuzzValue });
  return fc.record(
    {
      app_key: key,
      device_id: fc.oneof(fc.constantFrom('device-1', 'device-2'), anyString),
      begin_session: fc.constantFrom<unknown>('1', 1, 'yes', '\u0000'),
      session_duration: num,
      timestamp: num,
      events: asJsonText(fc.array(event, { maxLength: 3 })),
      metrics: asJsonText(fc.dictionary(fc.constantFrom('_os', '_app_version', '_device', '_locale'), anyString, { maxKeys: 3 })),
      user_details: asJsonText(fc.dictionary(fc.constantFrom('name', 'email', 'custom'), fuzzValue, { maxKeys: 2 })),
      checksum256: anyString,
    },
    { requiredKeys: ['app_key', 'device_id'] },
  );
}

function ingestArb(pools: Pools): fc.Arbitrary<Omit<Attempt, 'identity'>> {
  const params = ingestParamsArb(pools);
  const flat = (p: Record<string, unknown>) => Object.entries(p).map(([k, v]) => `${encodePart(k)}=${encodePart(v)}`).join('&');
  const one = fc.tuple(fc.constantFrom('get', 'form', 'json', 'text'), params).map(([how, p]): Omit<Attempt, 'identity'> => {
    if (how === 'get') return { method: 'GET', url: `/i?${flat(p)}`, headers: {} };
    if (how === 'json') return { method: 'POST', url: '/i', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(p) };
    return { method: 'POST', url: '/i', headers: { 'content-type': how === 'form' ? 'application/x-www-form-urlencoded' : 'text/plain' }, payload: flat(p) };
  });
  const bulk = fc
    .tuple(fc.constantFrom('form', 'json', 'get'), fc.oneof({ weight: 4, arbitrary: fc.array(params, { maxLength: 4 }) }, { weight: 1, arbitrary: fuzzValue }), fc.option(fc.constantFrom(...(pools.byName.app_key ?? []))))
    .map(([how, requests, key]): Omit<Attempt, 'identity'> => {
      const top: Record<string, unknown> = { requests: typeof requests === 'string' ? requests : JSON.stringify(requests), ...(key ? { app_key: key } : {}) };
      if (how === 'get') return { method: 'GET', url: `/i/bulk?${flat(top)}`, headers: {} };
      if (how === 'json') return { method: 'POST', url: '/i/bulk', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ ...top, requests }) };
      return { method: 'POST', url: '/i/bulk', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: flat(top) };
    });
  // The SDKs' behaviour settings (`/o/sdk?method=sc`): read-only, but on the same hostile input.
  const sdk = fc
    .tuple(fc.constantFrom('get', 'form'), params, fc.oneof({ weight: 3, arbitrary: fc.constant<unknown>('sc') }, { weight: 1, arbitrary: fuzzValue }))
    .map(([how, p, method]): Omit<Attempt, 'identity'> => {
      const query = flat({ method, app_key: p.app_key, device_id: p.device_id });
      if (how === 'get') return { method: 'GET', url: `/o/sdk?${query}`, headers: {} };
      return { method: 'POST', url: '/o/sdk', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: query };
    });
  return fc.oneof({ weight: 3, arbitrary: one }, { weight: 2, arbitrary: bulk }, { weight: 1, arbitrary: sdk });
}

let t: TestApp;
let pools: Pools;
const identities: { name: string; email: string | null; cookie: string }[] = [];
let countSql = '';

/** Row counts of every table in one statement: what a refused request changed, for the report. */
async function counts(): Promise<string> {
  const rows = await t.app.database.rows<Record<string, number>>(countSql);
  return JSON.stringify(rows[0]);
}

/**
 * Committed inserts and deletes so far, in any table but the attempt counters: statement triggers
 * (added to this test's scratch database only) log each one, and the log's highest id is one
 * cheap read. Rolled-back writes leave no row. A refused request must leave it where it was,
 * which is stricter than equal counts (an insert and a delete would cancel out there).
 */
async function writes(): Promise<number> {
  const rows = await t.app.database.rows<{ n: string }>('select coalesce(max(id), 0)::text as n from fuzz_writes');
  return Number(rows[0]?.n ?? -1);
}

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '100000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '100000', ANALYTICS_RATE_LIMIT_PER_MINUTE: '100000', INGEST_RATE_LIMIT_PER_MINUTE: '100000' });
  const cat = await loadCatalogue(t.app);
  const victim = await analyticsServer(t.app, cat, 'victim@example.com');
  const victimApp = await createAnalyticsApp(t.app, victim.deploymentId, victim.owner.cookie);
  const viewerCookie = await addMember(t.app, victim.owner.companyId, 'viewer@example.com', 'viewer');
  const rival = await analyticsServer(t.app, cat, 'rival@example.com');
  const rivalApp = await createAnalyticsApp(t.app, rival.deploymentId, rival.owner.cookie);
  const unverified = await signUp(t.app, 'unverified@example.com');
  // A paid server (its transaction has an invoice and a receipt; the card is kept on file) and a passkey.
  const paid = (await postOrder(t.app, victim.owner.cookie, orderBody(cat, victim.owner, { name: 'Paid server' }))).json<{ payload: { _id: string } }>().payload._id;
  if ((await pay(t.app, victim.owner.cookie, paid)).statusCode !== 200) throw new Error('the victim could not pay');
  const [transaction] = await t.app.database.rows<{ id: string }>(`select id from transactions where company_id = '${victim.owner.companyId}'`);
  const passkeyOptions = await t.app.inject({ method: 'POST', url: '/api/v1/auth/passkeys/options', headers: { cookie: victim.owner.cookie } });
  const registered = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/passkeys',
    headers: { cookie: victim.owner.cookie },
    payload: { name: 'Victim key', response: new SoftAuthenticator(t.config.publicUrl).register(passkeyOptions.json().payload) },
  });
  if (registered.statusCode !== 201) throw new Error(`the victim's passkey: ${registered.body}`);
  const passkeyId = registered.json<{ payload: { _id: string } }>().payload._id;
  // Some data in the victim's app, so reads have rows to work on.
  for (const key of ['purchase', 'signup']) await hit(t.app, { app_key: victimApp.key, device_id: 'device-1', begin_session: 1, events: [{ key, count: 2, sum: 3.5, segmentation: { plan: 'pro' } }] });
  const userIds = await t.app.database.rows<{ id: string }>("select id from users where email in ('victim@example.com', 'viewer@example.com')");
  const memberIds = await t.app.database.rows<{ id: string }>('select id from analytics_members');
  const byName: Record<string, string[]> = {
    deploymentId: [victim.deploymentId, rival.deploymentId],
    appId: [victimApp._id, rivalApp._id],
    company: [victim.owner.companyId, rival.owner.companyId],
    projectId: [victim.owner.projectId, rival.owner.projectId],
    userId: userIds.map((u) => u.id),
    memberId: memberIds.map((m) => m.id),
    app_key: [victimApp.key, rivalApp.key, 'no-such-key'],
    key: ['purchase', 'signup'],
    deviceId: ['device-1', 'device-2'],
    providerCode: ['gcp', 'aws'],
    txId: [transaction?.id ?? '', randomUUIDFor('txId')],
    id: [victim.owner.companyId, passkeyId, rival.owner.companyId, victim.deploymentId],
  };
  pools = { ids: [victim.deploymentId, paid, victim.owner.companyId, victim.owner.projectId, victimApp._id, passkeyId, ...userIds.map((u) => u.id), rival.deploymentId, rival.owner.companyId], byName };
  identities.push(
    { name: 'stranger', email: null, cookie: '' },
    { name: 'viewer', email: 'viewer@example.com', cookie: viewerCookie },
    { name: 'rival admin', email: 'rival@example.com', cookie: rival.owner.cookie },
    { name: 'unverified', email: 'unverified@example.com', cookie: unverified.cookie },
  );

  const tables = await t.app.database.rows<{ table_name: string }>("select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name");
  // Attempt counters (rate limits, failed sign-ins) count refused requests by design.
  const attempts = new Set(['rate_counters', 'limit_events', 'signin_failures']);
  const watched = tables.filter((r) => !attempts.has(r.table_name)).map((r) => r.table_name);
  countSql = `select ${watched.map((name) => `(select count(*)::int from "${name}") as "${name}"`).join(', ')}`;
  await t.app.database.rows('create table fuzz_writes (id bigserial primary key, at_table text not null)');
  await t.app.database.rows('create function fuzz_write() returns trigger language plpgsql as $$ begin insert into fuzz_writes (at_table) values (TG_TABLE_NAME); return null; end $$');
  for (const name of watched.filter((n) => n !== 'audit_logs')) await t.app.database.rows(`create trigger fuzz_write after insert or delete or truncate on "${name}" for each statement execute function fuzz_write()`);
  // A failed sign-in is audited by design (an attempt record, like signin_failures); any other audit row counts.
  await t.app.database.rows("create trigger fuzz_write after insert on audit_logs for each row when (NEW.action <> 'user.signInFailed') execute function fuzz_write()");
  await t.app.database.rows('create trigger fuzz_write_gone after delete or truncate on audit_logs for each statement execute function fuzz_write()');
}, 120_000);
afterAll(() => t?.close());

const ENVELOPE_KEYS = ['code', 'message', 'payload'];
function envelopeProblem(res: LightMyRequestResponse, ingestion: boolean): string | null {
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return 'not JSON';
  }
  if (!body || typeof body !== 'object') return 'not an object';
  const b = body as Record<string, unknown>;
  if (ingestion && Object.keys(b).join() === 'result' && typeof b.result === 'string') return null;
  if (Object.keys(b).sort().join() !== ENVELOPE_KEYS.join()) return `keys ${Object.keys(b).join(',')}`;
  if (typeof b.message !== 'string' || typeof b.code !== 'string' || !(b.code in ERRORS)) return 'bad code or message';
  if (!b.payload || typeof b.payload !== 'object') return 'no payload';
  return null;
}

const describeAttempt = (a: Attempt) => {
  const body = a.payload === undefined ? '' : ` body(${a.headers['content-type'] ?? 'none'})=${JSON.stringify(a.payload.toString()).slice(0, 300)}`;
  return `${a.identity}: ${a.method} ${a.url.slice(0, 300)}${body}`;
};

describe('the fuzz walk', () => {
  it('answers every generated request below 500, refuses with the envelope, changes nothing when refusing, and keeps answering health', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json<{ paths: Record<string, Record<string, Operation>> }>();
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([m, op]) => ({ path, method: m.toUpperCase() as Method, op })));
    expect(operations.length).toBeGreaterThanOrEqual(150);

    const findings: Finding[] = [];
    let sent = 0;
    let worst = { ms: 0, what: '' };
    let healthWorst = 0;
    let baseline = await writes();
    let baselineCounts = await counts();
    const identityCookie = new Map(identities.map((i) => [i.name, i.cookie]));

    const send = async (attempt: Attempt, ingestion: boolean) => {
      const started = performance.now();
      const res = await t.app.inject({
        method: attempt.method,
        url: attempt.url,
        headers: { ...attempt.headers, ...(identityCookie.get(attempt.identity) ? { cookie: identityCookie.get(attempt.identity) ?? '' } : {}) },
        // Each request from its own address: per-IP limits would otherwise answer 429 to most of the walk.
        remoteAddress: `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`,
        ...(attempt.payload === undefined ? {} : { payload: attempt.payload }),
      });
      const ms = performance.now() - started;
      sent += 1;
      if (ms > worst.ms) worst = { ms, what: `${describeAttempt(attempt).slice(0, 200)} → ${res.statusCode}` };
      // A customer's site must read every SDK answer, its errors too: one without CORS is a console error there.
      if (ingestion && res.headers['access-control-allow-origin'] !== '*') findings.push({ what: 'an SDK answer without CORS', attempt, status: res.statusCode, answer: res.body.slice(0, 300) });
      if (res.statusCode >= 500) {
        findings.push({ what: '5xx', attempt, status: res.statusCode, answer: res.body.slice(0, 300) });
        baseline = await writes();
        baselineCounts = await counts();
        return;
      }
      if (res.statusCode >= 400) {
        const problem = envelopeProblem(res, ingestion);
        if (problem) findings.push({ what: `4xx without the envelope (${problem})`, attempt, status: res.statusCode, answer: res.body.slice(0, 300) });
        const after = await writes();
        if (after !== baseline) {
          const afterCounts = await counts();
          const touched = await t.app.database.rows<{ at_table: string }>(`select distinct at_table from fuzz_writes where id > ${baseline}`);
          findings.push({ what: 'a refused request changed tables', attempt, status: res.statusCode, answer: `${res.body.slice(0, 200)} wrote ${touched.map((r) => r.at_table).join(', ')}; ${diff(baselineCounts, afterCounts)}` });
          baseline = after;
          baselineCounts = afterCounts;
        }
        return;
      }
      // Accepted: whatever it did (and the mail it sends after answering) is the new baseline.
      await t.app.mailer.idle();
      baseline = await writes();
      baselineCounts = await counts();
    };

    const health = async () => {
      const started = performance.now();
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
      healthWorst = Math.max(healthWorst, performance.now() - started);
      expect(res.statusCode, 'health during the walk').toBe(200);
    };

    for (const [index, { path, method, op }] of operations.entries()) {
      const samples = fc.sample(operationArb(path, method, op, pools), { seed: SEED + index, numRuns: RUNS * identities.length });
      for (const [n, sample] of samples.entries()) {
        const identity = identities[n % identities.length];
        if (!identity) continue;
        await send({ ...sample, identity: identity.name }, false);
      }
      await health();
      await restoreSessions(identityCookie);
      baseline = await writes();
      baselineCounts = await counts();
    }
    const ingestSamples = fc.sample(ingestArb(pools), { seed: SEED, numRuns: INGEST_RUNS * 8 });
    for (const [n, sample] of ingestSamples.entries()) {
      await send({ ...sample, identity: 'stranger' }, true);
      if (n % 100 === 0) {
        await health();
        // The walk's own checks write nothing; a late mail of an accepted request may.
        await t.app.mailer.idle();
        baseline = await writes();
        baselineCounts = await counts();
      }
    }
    await health();

    console.log(`fuzz walk (seed ${SEED}): ${sent} requests over ${operations.length} operations and the ingestion endpoints; worst latency ${worst.ms.toFixed(0)} ms (${worst.what}); worst health ${healthWorst.toFixed(0)} ms`);
    const grouped = new Map<string, Finding[]>();
    for (const f of findings) {
      const key = `${f.what} ${f.status} ${f.attempt.method} ${f.attempt.url.split('?')[0]}`;
      grouped.set(key, [...(grouped.get(key) ?? []), f]);
    }
    const report = [...grouped.entries()].map(([key, list]) => `${list.length}× ${key}\n    e.g. ${describeAttempt(list[0]?.attempt ?? { identity: '', method: 'GET', url: '', headers: {} })}\n    → ${list[0]?.answer}`);
    if (RUNS >= 22) expect(sent).toBeGreaterThanOrEqual(14_000);
    if (process.env.FUZZ_REPORT) writeFileSync(process.env.FUZZ_REPORT, JSON.stringify({ findings }, null, 1));
    expect(report, report.join('\n')).toEqual([]);
  }, 600_000);
});

/** Table counts that differ, for the report. */
function diff(before: string, after: string): string {
  const a = JSON.parse(before) as Record<string, number>;
  const b = JSON.parse(after) as Record<string, number>;
  return Object.keys(b)
    .filter((k) => a[k] !== b[k])
    .map((k) => `${k}: ${a[k]} → ${b[k]}`)
    .join(', ');
}

/** A walk may sign an identity out (POST /auth/signout is an operation too): sign it in again. */
async function restoreSessions(cookies: Map<string, string>) {
  for (const identity of identities) {
    if (!identity.email) continue;
    // From an address of its own, so the walk's per-IP limits do not answer instead.
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie: cookies.get(identity.name) ?? '' }, remoteAddress: '192.0.2.1' });
    if (me.statusCode !== 401) continue;
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: { email: identity.email, password: GOOD_PASSWORD }, remoteAddress: '192.0.2.1' });
    // An account nobody verified may delete itself (DELETE /auth/me is an operation too): sign it up again.
    cookies.set(identity.name, res.statusCode === 200 || identity.name !== 'unverified' ? sessionCookie(res) : (await signUp(t.app, identity.email)).cookie);
  }
}
