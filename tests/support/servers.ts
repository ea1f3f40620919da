import type { FastifyInstance } from 'fastify';
import type { DeploymentPopulated } from '../../src/domain/deployments/schemas';
import type { DeploymentTimeline } from '../../src/domain/deployments/tasks';

/** Settings that make the worker and mock-cloud quick enough for tests. */
export const FAST_SERVERS = {
  WORKER_ENABLED: 'true',
  AUTH_RATE_LIMIT_PER_MINUTE: '10000',
  AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000',
  MOCK_CLOUD_BOOT_MS: '100',
  MOCK_CLOUD_CALL_MS: '0',
  QUEUE_POLL_MS: '500',
  TASK_RETRY_DELAY_SECONDS: '0',
  // A restart's drain waits for other processes' ingest caches; a test has one process.
  RESTART_DRAIN_MS: '0',
  // Tests run the scheduled jobs themselves; their crons must not fire between a test's two reads.
  BACKUP_CRON: '0 0 1 1 *',
  HEALTH_CHECK_CRON: '0 0 1 1 *',
  MAU_SAMPLE_CRON: '0 0 1 1 *',
  TERMINATION_CRON: '0 0 1 1 *',
  PAST_DUE_CRON: '0 0 1 1 *',
  ANALYTICS_REPORTS_CRON: '0 0 1 1 *',
  PENDING_ORDERS_CRON: '0 0 1 1 *',
  DOMAIN_RECHECK_CRON: '0 0 1 1 *',
};

export const api = (app: FastifyInstance, cookie: string, method: 'GET' | 'POST' | 'DELETE' | 'PUT', url: string, payload?: Record<string, unknown>) =>
  app.inject({ method, url: `/api/v1${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });

export async function populated(app: FastifyInstance, cookie: string, id: string): Promise<DeploymentPopulated> {
  return (await api(app, cookie, 'GET', `/deployments/${id}/populated`)).json<{ payload: DeploymentPopulated }>().payload;
}

export async function timeline(app: FastifyInstance, cookie: string, id: string): Promise<DeploymentTimeline> {
  return (await api(app, cookie, 'GET', `/deployments/events?_id=${id}`)).json<{ payload: DeploymentTimeline }>().payload;
}

/** Polls until `check` returns a value (or fails after `ms`); the worker runs in the app. */
export async function until<T>(check: () => Promise<T | null | undefined | false>, ms = 30_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the server is in `status` with no task open, and returns it. */
export function settledIn(app: FastifyInstance, cookie: string, id: string, status: string, ms = 30_000) {
  return until(
    async () => {
      const d = await populated(app, cookie, id);
      return d.status === status && (!d.latestTask || !['queued', 'running'].includes(d.latestTask.status)) ? d : null;
    },
    ms,
    `server ${id} to be ${status}`,
  );
}

/** Jobs in the task queue (pg-boss's own schema, which tableCounts does not see). */
export async function queuedJobs(app: FastifyInstance): Promise<number> {
  const rows = await app.database.rows<{ n: number }>("select count(*)::int as n from pgboss.job where name = 'deployment-tasks'");
  return rows[0]?.n ?? 0;
}

/** mock-cloud calls that did the work, per operation, for one server. */
export async function appliedCalls(app: FastifyInstance, deploymentId: string): Promise<Record<string, number>> {
  const rows = await app.database.rows<{ op: string; n: number }>(
    `select op, count(*)::int as n from mock_cloud_calls where deployment_id = '${deploymentId}' and outcome = 'applied' group by op`,
  );
  return Object.fromEntries(rows.map((r) => [r.op, r.n]));
}
