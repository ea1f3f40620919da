import type { FastifyInstance } from 'fastify';
import type { AppDto, DashboardSession } from '../../analytics/domain/schemas';
import { companyOwner, FREE, orderBody, postOrder, type Catalogue } from './orders';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Puts a server in a status as its tasks would (tests run no worker), and its subscription in a
 * state when given: what analyticsAccessFor reads.
 */
export async function setServerState(app: FastifyInstance, deploymentId: string, status: string, subscription?: { status: string; pastDueSince?: Date | null }) {
  await app.database.rows(`update deployments set status = '${status}' where id = '${deploymentId}'`);
  if (subscription) {
    const since = subscription.pastDueSince ? `'${subscription.pastDueSince.toISOString()}'` : 'null';
    await app.database.rows(`update subscriptions set status = '${subscription.status}', past_due_since = ${since} where deployment_id = '${deploymentId}'`);
  }
}

/** A company owner with a free server, provisioned (running), whose dashboard they opened through the sign-in link. */
export async function analyticsServer(app: FastifyInstance, cat: Catalogue, email: string) {
  const owner = await companyOwner(app, email);
  const order = await postOrder(app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: `Server of ${email.split('@')[0]}` }));
  const deploymentId = order.json<{ payload: { _id: string } }>().payload._id;
  await setServerState(app, deploymentId, 'running');
  const opened = await app.inject({ method: 'POST', url: `/api/v1/analytics/${deploymentId}/open`, headers: { cookie: owner.cookie }, payload: {} });
  if (opened.statusCode !== 200) throw new Error(`open failed: ${opened.body}`);
  return { owner, deploymentId, session: opened.json<{ payload: DashboardSession }>().payload };
}

/** A call to a dashboard route of one deployment, as a session cookie or with extra headers (tokens). */
export function dashboard(app: FastifyInstance, deploymentId: string) {
  return (method: Method, path: string, auth: { cookie?: string; headers?: Record<string, string> }, payload?: unknown) =>
    app.inject({ method, url: `/api/v1/analytics/${deploymentId}${path}`, headers: { ...(auth.cookie ? { cookie: auth.cookie } : {}), ...auth.headers }, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
}

export async function createAnalyticsApp(app: FastifyInstance, deploymentId: string, cookie: string, body: Record<string, unknown> = {}): Promise<AppDto> {
  const res = await dashboard(app, deploymentId)('POST', '/apps', { cookie }, { name: 'My App', ...body });
  if (res.statusCode !== 201) throw new Error(`app create failed: ${res.body}`);
  return res.json<{ payload: AppDto }>().payload;
}

/** One SDK request through /i, query-encoded like a GET from the SDKs. */
export function hit(app: FastifyInstance, params: Record<string, unknown>, method: 'GET' | 'POST' = 'GET') {
  const encoded = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
  return method === 'GET'
    ? app.inject({ method: 'GET', url: `/i?${encoded}` })
    : app.inject({ method: 'POST', url: '/i', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: encoded });
}

/** The daily total row of an event (segment ''), or of one segment value. */
export async function eventRow(app: FastifyInstance, appId: string, key: string, day?: string, segment = '', value = '') {
  const rows = await app.database.rows<{ day: string; count: number; sum: number; dur: number }>(
    `select day, count, sum, dur from analytics_daily_events where app_id = '${appId}' and event_key = '${key.replace(/'/g, "''")}' and segment = '${segment}' and value = '${value}'${day ? ` and day = '${day}'` : ''} order by day`,
  );
  return rows;
}

/** The raw events as rows, one per event (they are kept one row per request): a table expression for test queries. */
export const RAW_EVENTS = `(select r.app_id, r.device_id, e.* from analytics_raw_requests r cross join lateral jsonb_to_recordset(r.events) as e(key text, count float8, sum float8, dur float8, segmentation jsonb, timestamp text)) raw_events`;
