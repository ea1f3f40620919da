import type { FastifyRequest } from 'fastify';
import type { AnalyticsActor } from '../services';

const TENANT_PATH = /^\/api\/v1\/analytics\/[^/]+/;

/**
 * Who calls a dashboard route: a token (`countly-token` header or `auth_token` query, as Countly
 * reads them), a member's API key (`api_key`), or else the signed-in session. A token is checked
 * against the path below the tenant (`/apps/...`) and the query, without the credential itself.
 */
export async function analyticsActor(request: FastifyRequest): Promise<AnalyticsActor> {
  const url = new URL(request.raw.url ?? '/', 'http://local');
  const query = Object.fromEntries([...url.searchParams].filter(([name]) => name !== 'auth_token' && name !== 'api_key'));
  const header = request.headers['countly-token'];
  const token = (typeof header === 'string' ? header : undefined) ?? url.searchParams.get('auth_token');
  if (token) return { kind: 'token', token, request: { path: decodeURIComponent(url.pathname).replace(TENANT_PATH, '') || '/', query } };
  const apiKey = url.searchParams.get('api_key');
  if (apiKey) return { kind: 'apiKey', apiKey };
  const { user } = await request.requireSession();
  return { kind: 'session', user };
}
