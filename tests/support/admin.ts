import type { FastifyInstance } from 'fastify';
import { seedFirstAdmin } from '../../server/db/seed';
import { sessionCookie } from './auth';

export const ROOT = { email: 'root@example.com', password: 'Root#Pass-2026' };

/** Seeds the first platform admin and signs them in: the cookie of an admin session. */
export async function adminCookie(app: FastifyInstance, admin = ROOT): Promise<string> {
  await seedFirstAdmin(app.database.db, admin);
  return sessionCookie(await app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: admin }));
}

/** The ra-data-simple-rest query: each value JSON in the query string. */
export const raQuery = (o: Record<string, unknown>) =>
  Object.entries(o)
    .map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`)
    .join('&');

/** A request to /api/v1 as the holder of `cookie`. */
export function call(app: FastifyInstance, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string, payload?: unknown) {
  return app.inject({ method, url: `/api/v1${url}`, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
}

/** The audit rows of an action, oldest first. */
export function auditRows(app: FastifyInstance, action: string) {
  return app.database.rows<{ actor_email: string | null; target_type: string; target_id: string; company_id: string | null; before: unknown; after: unknown }>(
    `select actor_email, target_type, target_id, company_id, before, after from audit_logs where action = '${action}' order by at, id`,
  );
}
