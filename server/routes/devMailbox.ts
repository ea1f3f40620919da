import type { FastifyPluginAsync } from 'fastify';
import { DEV_MAILBOX_PATH, isLoopback } from '../services/devMailbox';

/**
 * The development mailbox page (services/devMailbox.ts), outside the API: registered only when the
 * outbox is the delivery outside production, and answered only to this machine's own browser;
 * anyone else gets what an unknown path gets.
 */
export const devMailboxRoutes: FastifyPluginAsync = async (app) => {
  const { devMailbox } = app;
  if (!devMailbox.enabled) return;
  app.get(DEV_MAILBOX_PATH, async (request, reply) => {
    if (!isLoopback(request.ip)) return reply.callNotFound();
    return reply
      .header('cache-control', 'no-store')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
      .type('text/html; charset=utf-8')
      .send(await devMailbox.page());
  });
};
