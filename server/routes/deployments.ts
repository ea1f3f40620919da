import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  backupDownloadLinkSchema,
  backupDownloadQuerySchema,
  backupDtoSchema,
  byCompanyAnswerSchema,
  byCompanyQuerySchema,
  deploymentActionAnswerSchema,
  deploymentPopulatedSchema,
  deploymentViewSchema,
  healthCheckDtoSchema,
  restoreBodySchema,
  serverSignInAnswerSchema,
  serverSignInPath,
  serverSignInQuerySchema,
  updateDomainBodySchema,
  updateDomainQuerySchema,
} from '../../src/domain/deployments/schemas';
import { deploymentListQuerySchema } from '../../src/domain/deployments/listQuery';
import { deploymentTimelineSchema, timelineQuerySchema } from '../../src/domain/deployments/tasks';
import { companyParamsSchema, deploymentParamsSchema } from '../../src/domain/orders/schemas';
import { pricingAnswerSchema, pricingRequestSchema } from '../../src/domain/pricing/schemas';
import { AppError } from '../errors';
import { errorReplies, ok, replies } from './envelope';

const tags = ['deployments'];
const empty = z.object({}).strict();

/** Reads of servers (members, viewers included) and their lifecycle actions (admins), customer scope: SPEC §7 Deployments. */
export const deploymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const reads = app.deploymentReads;
  const actions = app.deploymentActions;
  // Actions queue work on real machines: a generous cap per user stops a script, not a person.
  const limited = { config: { rateLimit: { max: 60, timeWindow: 60_000 } } };
  const params = deploymentParamsSchema;
  const action = replies(deploymentActionAnswerSchema);

  app.get('/deployments', { schema: { tags, querystring: deploymentListQuerySchema, response: replies(z.array(deploymentViewSchema)) } }, async (request, reply) => {
    const user = request.actor;
    const { range } = request.query;
    if (!range) return ok(await reads.list(user, request.query.company, request.query.project || undefined));
    const page = await reads.page(user, { ...request.query, project: request.query.project || undefined, range });
    const end = page.rows.length ? range[0] + page.rows.length - 1 : range[0];
    reply.header('content-range', `deployments ${range[0]}-${end}/${page.total}${page.bounded ? '+' : ''}`);
    return ok(page.rows);
  });

  app.get('/deployments/by-company/:company', { schema: { tags, params: companyParamsSchema, querystring: byCompanyQuerySchema, response: replies(byCompanyAnswerSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await reads.byCompany(user, request.params.company, ['1', 'true'].includes(request.query.count ?? '')));
  });

  app.get('/deployments/by-user', { schema: { tags, response: replies(z.array(deploymentViewSchema)) } }, async (request) => {
    const user = request.actor;
    return ok(await reads.byUser(user));
  });

  app.get('/deployments/events', { schema: { tags, querystring: timelineQuerySchema, response: replies(deploymentTimelineSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await reads.timeline(user, request.query._id));
  });

  // One server as its page shows it; the wizard's edit mode starts from it too.
  app.get('/deployments/:id/populated', { schema: { tags, params, response: replies(deploymentPopulatedSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await reads.populated(user, request.params.id));
  });

  app.get('/deployments/:id/backups', { schema: { tags, params, response: replies(z.array(backupDtoSchema)) } }, async (request) => {
    const user = request.actor;
    return ok(await reads.backups(user, request.params.id));
  });

  app.get('/deployments/:id/health-checks', { schema: { tags, params, response: replies(z.array(healthCheckDtoSchema)) } }, async (request) => {
    const user = request.actor;
    return ok(await reads.healthChecks(user, request.params.id));
  });

  // Back up now: a manual backup, queued like the scheduled ones.
  app.post('/deployments/:id/backups', { ...limited, schema: { tags, params, body: empty.optional(), response: action } }, async (request) => {
    const user = request.actor;
    return ok(await actions.backupNow(user, request.params));
  });

  app.post('/deployments/:id/backups/:backupId/download', { ...limited, schema: { tags, params: params.extend({ backupId: z.string().max(64) }), body: empty.optional(), response: replies(backupDownloadLinkSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await actions.backupDownloadLink(user, { id: request.params.id, backupId: request.params.backupId }));
  });

  app.delete('/deployments/:id', { ...limited, schema: { tags, params, response: action } }, async (request) => {
    const user = request.actor;
    return ok(await actions.remove(user, request.params));
  });

  // SPEC §7 makes this change a GET: the cross-site guard of unsafe methods is applied to it too,
  // so a link on another site cannot cancel a deletion with the visitor's cookie.
  const sameSiteOnly = async (request: FastifyRequest) => {
    if (request.headers['sec-fetch-site'] === 'cross-site') throw new AppError('CROSS_SITE_REQUEST');
  };
  app.get('/deployments/:id/cancel-termination', { ...limited, onRequest: sameSiteOnly, schema: { tags, params, response: action } }, async (request) => {
    const user = request.actor;
    return ok(await actions.cancelTermination(user, request.params));
  });

  app.post('/deployments/:id/restore', { ...limited, schema: { tags, params, body: restoreBodySchema, response: action } }, async (request) => {
    const user = request.actor;
    return ok(await actions.restore(user, { id: request.params.id, body: request.body }));
  });

  app.post('/deployments/:id/restart', { ...limited, schema: { tags, params, body: empty.optional(), response: action } }, async (request) => {
    const user = request.actor;
    return ok(await actions.restart(user, request.params));
  });

  app.post('/deployments/:id/health-check', { ...limited, schema: { tags, params, body: empty.optional(), response: action } }, async (request) => {
    const user = request.actor;
    return ok(await actions.healthCheck(user, request.params));
  });

  app.post('/deployments/:id/update-domain', { ...limited, schema: { tags, params, querystring: updateDomainQuerySchema, body: updateDomainBodySchema, response: action } }, async (request) => {
    const user = request.actor;
    return ok(await actions.updateDomain(user, { id: request.params.id, body: request.body, removeSSL: request.query.removeSSL === 'true' }));
  });

  app.post('/deployments/:id/verify-domain', { ...limited, schema: { tags, params, body: empty.optional(), response: action } }, async (request) => {
    const user = request.actor;
    return ok(await actions.verifyDomain(user, request.params));
  });

  app.post('/deployments/:id/unlock-users', { ...limited, schema: { tags, params, body: empty.optional(), response: action } }, async (request) => {
    const user = request.actor;
    return ok(await actions.unlockUsers(user, request.params));
  });

  // GET /auth/{product}-server: a short-lived signed link into the server's own dashboard (opened through /redirect).
  app.get(serverSignInPath(app.config.PRODUCT_NAME), { ...limited, schema: { tags: ['auth'], querystring: serverSignInQuerySchema, response: replies(serverSignInAnswerSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await actions.serverSignIn(user, request.query));
  });
};

/** Pricing an order (public scope). */
const archive = { schema: z.string().meta({ format: 'binary' }).describe('The backup archive (docs/backup-format.md)') };

export const deploymentPublicRoutes: FastifyPluginAsyncZod = async (app) => {
  // A backup's archive through the signed link a company admin asked for: the link is the
  // authority, so it opens from a browser download or a script without the session.
  app.get(
    '/backups/download',
    { config: { rateLimit: { max: 30, timeWindow: 60_000 } }, schema: { tags, querystring: backupDownloadQuerySchema, response: { 200: { description: 'The archive', content: { 'application/gzip': archive } }, ...errorReplies } } },
    async (request, reply) => {
      const download = await app.backupDownloads.open(request.query);
      const sent = (reply as FastifyReply).header('content-disposition', `attachment; filename="${download.fileName}"`).header('cache-control', 'private, no-store').type('application/gzip');
      if (download.sizeBytes !== null) sent.header('content-length', String(download.sizeBytes));
      if (download.sha256) sent.header('x-checksum-sha256', download.sha256);
      return sent.send(download.stream);
    },
  );

  // Open to visitors: the pre-login wizard prices orders too, before tax. Naming a company (a
  // member's order) adds the tax of its billing country.
  app.post('/deployments/pricing', { config: { requestContext: false }, schema: { tags, body: pricingRequestSchema, response: replies(pricingAnswerSchema) } }, async (request) => {
    // Reads only (never audits), and most callers are visitors without a session cookie.
    const session = request.body.company ? await request.requireSession() : request.sessionToken() ? await request.session() : null;
    return ok(await app.pricing.price(session?.user ?? null, { order: request.body, ip: request.ip }));
  });
};
