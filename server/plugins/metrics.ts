import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors';
import { createAppMetrics } from '../metrics';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * GET /metrics for a Prometheus scraper, and the request-duration hook that feeds it. Without
 * METRICS_TOKEN there is no such route (the not-found answer); a wrong or missing bearer is 401.
 */
export async function registerMetrics(app: FastifyInstance): Promise<void> {
  const metrics = createAppMetrics({
    database: app.database,
    async queueCounts() {
      const queues = await app.queue.boss.getQueues();
      return queues.map((q) => ({ name: q.name, queued: q.queuedCount, active: q.activeCount, deferred: q.deferredCount, failed: q.failedCount }));
    },
  });
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern (`/api/v1/deployments/:id`), never the URL: one series per route, not per id.
    metrics.observeRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  const token = app.config.METRICS_TOKEN;
  // No token, no route: /metrics is then an unknown route and answers exactly as one.
  if (!token) return;
  const expected = digest(token);
  app.get('/metrics', { config: { requestContext: false }, schema: { hide: true } }, async (request, reply) => {
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!given || !timingSafeEqual(digest(given), expected)) throw new AppError('UNAUTHORIZED');
    return reply.header('cache-control', 'no-store').type(metrics.contentType).send(await metrics.scrape());
  });
}
