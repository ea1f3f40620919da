import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The paths the Countly SDKs call (as of web 26.1, Android, iOS and Node): `/i` and `/i/bulk` to
 * write, `/o/...` to read (`/o/sdk` server configuration and remote config, `/o/sdk/content`,
 * `/o/feedback/...`, `/o/surveys/...`). Browser SDKs call them from the customer's own sites.
 */
export const isSdkPath = (url: string): boolean => {
  const path = url.split('?', 1)[0] ?? '';
  return path === '/i' || path.startsWith('/i/') || path === '/o' || path.startsWith('/o/');
};

/**
 * Any origin may call an SDK path and read its answer, whatever it is (Countly's `{ result }`, a
 * refusal before routing, a rate limit, a 404 for a feature Beacon lacks): a browser that cannot
 * read an error logs a CORS failure on every page of the customer's site. Nothing here reads
 * cookies, so a wildcard origin opens nothing. Preflights are answered before any route or guard.
 */
export const sdkCorsPlugin = fp(async (app: FastifyInstance) => {
  // Callback hooks: they run on every request (ingestion's hottest path among them), and an async
  // hook costs a promise and a turn of the microtask queue each time.
  app.addHook('onRequest', (request, reply, done) => {
    if (!isSdkPath(request.url)) return done();
    setSdkCors(reply);
    if (request.method !== 'OPTIONS') return done();
    // Answered here: the rest of the hooks and the route are skipped.
    reply.header('access-control-allow-methods', 'GET, POST').header('access-control-allow-headers', 'content-type').header('access-control-max-age', '86400').code(204).send();
  });
  // Set again at send: the security headers (same-origin resource policy) are set after this hook.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (isSdkPath(request.url)) setSdkCors(reply);
    done(null, payload);
  });
});

/** The headers every SDK path answers with; a browser SDK may read `Retry-After` (a drained server's 503). */
export function setSdkCors(reply: FastifyReply): void {
  reply.header('access-control-allow-origin', '*').header('access-control-expose-headers', 'retry-after').header('cross-origin-resource-policy', 'cross-origin');
}
