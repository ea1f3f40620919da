import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { recordIngestRefused } from '../../../server/metrics';
import type { IngestAnswer } from '../services/ingest';
import type { IngestRequest } from '../services/parse';

/**
 * The Countly-compatible ingestion endpoints and the SDKs' read path (/o/sdk), at the root like Countly's (`<server>/i`): the
 * official SDKs take a server URL and append `/i` to its host, dropping any path, so a
 * per-deployment prefix would not reach us. The app_key names the app and so the tenant.
 * Answers are Countly's `{ result }`, not the API envelope: the SDKs read that shape.
 */
export async function ingestRoutes(app: FastifyInstance): Promise<void> {
  // Bodies are kept as sent: the checksum and the retry hash are computed over the raw text.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(['application/x-www-form-urlencoded', 'text/plain'], { parseAs: 'string' }, (_request, body, done) => done(null, { raw: body, params: Object.fromEntries(new URLSearchParams(body as string)) }));
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      const parsed: unknown = JSON.parse(body as string);
      done(null, { raw: body, params: parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {} });
    } catch {
      done(null, { raw: body, params: {} });
    }
  });

  const toRequest = (request: FastifyRequest): IngestRequest => {
    const url = request.raw.url ?? '';
    const q = url.indexOf('?');
    const rawQuery = q >= 0 ? url.slice(q + 1) : '';
    const body = (request.body ?? { raw: '', params: {} }) as { raw: string; params: Record<string, unknown> };
    return { params: { ...Object.fromEntries(new URLSearchParams(rawQuery)), ...body.params }, rawQuery, rawBody: body.raw, deploymentId: request.serverHost?.deploymentId };
  };
  const send = (reply: FastifyReply, answer: IngestAnswer) => {
    if (answer.status !== 200) recordIngestRefused();
    // A drained server (restarting, being restored): the SDKs send the data again after this many seconds.
    if (answer.retryAfter) reply.header('retry-after', String(answer.retryAfter));
    return reply.code(answer.status).header('cache-control', 'no-store').send({ result: answer.result });
  };

  // CORS and preflights for every SDK path, errors included: plugins/sdkCors.ts.

  // Ingestion never audits: no request context to set up on the hottest route.
  const limited = { config: { rateLimit: { max: app.config.INGEST_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 }, requestContext: false } };
  app.route({ method: ['GET', 'POST'], url: '/i', ...limited, handler: async (request, reply) => send(reply, await app.analytics.ingest(toRequest(request))) });
  app.post('/i/bulk', limited, async (request, reply) => send(reply, await app.analytics.ingestBulk(toRequest(request))));
  // The SDKs' read path (server configuration since web SDK 25.4): checked and limited as /i, never written.
  app.route({
    method: ['GET', 'POST'],
    url: '/o/sdk',
    ...limited,
    handler: async (request, reply) => {
      const answer = await app.analytics.sdkConfig(toRequest(request));
      if (answer.status !== 200 && answer.retryAfter) reply.header('retry-after', String(answer.retryAfter));
      return reply.code(answer.status).header('cache-control', 'no-store').send(answer.body);
    },
  });
}
