import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  serverSignInBodySchema,
  apiKeyAnswerSchema,
  appInputSchema,
  appParamsSchema,
  appSchema,
  appUpdateSchema,
  clearAppSchema,
  dashboardSessionSchema,
  jobParamsSchema,
  jobSchema,
  memberInputSchema,
  memberParamsSchema,
  memberCandidateSchema,
  memberSchema,
  memberUpdateSchema,
  openInputSchema,
  passwordChangeSchema,
  tenantParamsSchema,
  versionSchema,
} from '../../domain/schemas';
import { sdkSettingsAnswerSchema, sdkSettingsSchema } from '../../domain/sdk';
import { analyticsActor } from './actor';
import { okPage } from './listing';
import { appListQuerySchema, memberListQuerySchema } from '../../domain/listing';
import { AppError } from '../../../server/errors';
import { errorReplies, noPayload, ok, replies } from '../../../server/routes/envelope';

const tags = ['analytics'];
const exportFile = z.object({ app: z.object({ _id: z.string(), name: z.string() }), user: z.record(z.string(), z.unknown()), events: z.array(z.record(z.string(), z.unknown())) });

/**
 * Each deployment's analytics dashboard, under /analytics/{deploymentId}: applications, users,
 * user settings, jobs and versions here; events, tokens and app users in analyticsData.ts. The
 * service resolves the caller (session, token or API key) to a dashboard member for every call.
 */
export const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { analytics } = app;
  // Per address: tokens and API keys are not guessable, but nobody needs more than this from one place.
  const limited = { config: { rateLimit: { max: app.config.ANALYTICS_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 } } };

  // At the server's own address: the sign-in link makes a session valid there only (its cookie is that host's).
  app.post(
    '/analytics/:deploymentId/signin',
    {
      config: { rateLimit: { max: app.config.AUTH_RATE_LIMIT_PER_MINUTE * 4, timeWindow: 60_000 } },
      // Only at that server's own address, whatever the body: elsewhere the route does not exist.
      onRequest: async (request) => {
        if (request.serverHost?.deploymentId !== (request.params as { deploymentId?: string }).deploymentId) throw new AppError('NOT_FOUND');
      },
      schema: { tags, params: tenantParamsSchema, body: serverSignInBodySchema, response: replies(dashboardSessionSchema) },
    },
    async (request, reply) => {
      const { token, dashboard } = await analytics.signInAtServer({ deploymentId: request.params.deploymentId, link: request.body.link, meta: { ip: request.ip, userAgent: request.headers['user-agent'] } });
      reply.setSessionCookie(token);
      return ok(dashboard);
    },
  );

  app.get('/analytics/:deploymentId/apps', { ...limited, schema: { tags, params: tenantParamsSchema, querystring: appListQuerySchema, response: replies(z.array(appSchema)) } }, async (request, reply) =>
    okPage(reply, await analytics.listApps(await analyticsActor(request), { ...request.params, query: request.query })),
  );
  app.post('/analytics/:deploymentId/apps', { ...limited, schema: { tags, params: tenantParamsSchema, body: appInputSchema, response: replies(appSchema, 201) } }, async (request, reply) => {
    reply.code(201);
    return ok(await analytics.createApp(await analyticsActor(request), { ...request.params, app: request.body }));
  });
  app.put('/analytics/:deploymentId/apps/:appId', { ...limited, schema: { tags, params: appParamsSchema, body: appUpdateSchema, response: replies(appSchema) } }, async (request) =>
    ok(await analytics.updateApp(await analyticsActor(request), { ...request.params, app: request.body })),
  );
  // multipart/form-data with the image in `icon` (JPG, PNG or GIF, checked by its bytes).
  app.post(
    '/analytics/:deploymentId/apps/:appId/icon',
    { ...limited, schema: { tags, params: appParamsSchema, body: z.object({}).nullish().describe('multipart/form-data with the image file in icon'), consumes: ['multipart/form-data'], response: replies(appSchema) } },
    async (request) => {
      // Who asks first: the body of a caller who may not change this app's icon is never read.
      const actor = await analyticsActor(request);
      await analytics.checkAppIconUpload(actor, request.params);
      const { file } = await request.readForm('icon');
      return ok(await analytics.uploadAppIcon(actor, { ...request.params, upload: file }));
    },
  );
  app.delete('/analytics/:deploymentId/apps/:appId', { ...limited, schema: { tags, params: appParamsSchema, response: replies(noPayload) } }, async (request) => {
    await analytics.deleteApp(await analyticsActor(request), request.params);
    return ok(null);
  });
  app.post('/analytics/:deploymentId/apps/:appId/clear', { ...limited, schema: { tags, params: appParamsSchema, body: clearAppSchema, response: replies(noPayload) } }, async (request) => {
    await analytics.clearApp(await analyticsActor(request), { ...request.params, period: request.body.period });
    return ok(null);
  });

  // The SDK behaviour settings /o/sdk answers: readable by the app's users, changed by its admins.
  app.get('/analytics/:deploymentId/apps/:appId/sdk-settings', { ...limited, schema: { tags, params: appParamsSchema, response: replies(sdkSettingsAnswerSchema) } }, async (request) =>
    ok(await analytics.sdkSettings(await analyticsActor(request), request.params)),
  );
  app.put('/analytics/:deploymentId/apps/:appId/sdk-settings', { ...limited, schema: { tags, params: appParamsSchema, body: sdkSettingsSchema, response: replies(sdkSettingsAnswerSchema) } }, async (request) =>
    ok(await analytics.updateSdkSettings(await analyticsActor(request), { ...request.params, settings: request.body })),
  );

  app.get('/analytics/:deploymentId/members', { ...limited, schema: { tags, params: tenantParamsSchema, querystring: memberListQuerySchema, response: replies(z.array(memberSchema)) } }, async (request, reply) =>
    okPage(reply, await analytics.listMembers(await analyticsActor(request), { ...request.params, query: request.query })),
  );
  app.get('/analytics/:deploymentId/members/candidates', { ...limited, schema: { tags, params: tenantParamsSchema, response: replies(z.array(memberCandidateSchema)) } }, async (request) =>
    ok(await analytics.listMemberCandidates(await analyticsActor(request), request.params)),
  );
  app.post('/analytics/:deploymentId/members', { ...limited, schema: { tags, params: tenantParamsSchema, body: memberInputSchema, response: replies(memberSchema, 201) } }, async (request, reply) => {
    reply.code(201);
    return ok(await analytics.addMember(await analyticsActor(request), { ...request.params, member: request.body }));
  });
  app.get('/analytics/:deploymentId/members/:memberId', { ...limited, schema: { tags, params: memberParamsSchema, response: replies(memberSchema) } }, async (request) =>
    ok(await analytics.getMember(await analyticsActor(request), request.params)),
  );
  app.put('/analytics/:deploymentId/members/:memberId', { ...limited, schema: { tags, params: memberParamsSchema, body: memberUpdateSchema, response: replies(memberSchema) } }, async (request) =>
    ok(await analytics.updateMember(await analyticsActor(request), { ...request.params, member: request.body })),
  );
  app.delete('/analytics/:deploymentId/members/:memberId', { ...limited, schema: { tags, params: memberParamsSchema, response: replies(noPayload) } }, async (request) => {
    await analytics.removeMember(await analyticsActor(request), request.params);
    return ok(null);
  });

  app.get('/analytics/:deploymentId/me', { ...limited, schema: { tags, params: tenantParamsSchema, response: replies(memberSchema) } }, async (request) => ok(await analytics.me(await analyticsActor(request), request.params)));
  app.put('/analytics/:deploymentId/me/password', { ...limited, schema: { tags, params: tenantParamsSchema, body: passwordChangeSchema, response: replies(noPayload) } }, async (request) => {
    await analytics.changePassword(await analyticsActor(request), { ...request.params, change: request.body });
    return ok(null);
  });
  // Keys are generated here, never chosen: a chosen key could be tried against other users' keys.
  app.post('/analytics/:deploymentId/me/api-key/regenerate', { ...limited, schema: { tags, params: tenantParamsSchema, body: z.object({}).optional(), response: replies(apiKeyAnswerSchema) } }, async (request) =>
    ok(await analytics.regenerateApiKey(await analyticsActor(request), request.params)),
  );

  app.get('/analytics/:deploymentId/jobs', { ...limited, schema: { tags, params: tenantParamsSchema, response: replies(z.array(jobSchema)) } }, async (request) => ok(await analytics.listJobs(await analyticsActor(request), request.params)));
  app.get(
    '/analytics/:deploymentId/jobs/:jobId/download',
    { ...limited, schema: { tags, params: jobParamsSchema, response: { 200: { description: 'The export as a JSON file named with its date', content: { 'application/json': { schema: exportFile } } }, ...errorReplies } } },
    async (request, reply) => {
      const file = await analytics.downloadExport(await analyticsActor(request), request.params);
      // Sent as the text of the file: the typed reply knows only the declared JSON shape.
      return (reply as FastifyReply).header('content-disposition', `attachment; filename="${file.fileName}"`).type('application/json; charset=utf-8').send(file.body);
    },
  );
  app.get('/analytics/:deploymentId/versions', { ...limited, schema: { tags, params: tenantParamsSchema, response: replies(z.array(versionSchema)) } }, async (request) => ok(await analytics.listVersions(await analyticsActor(request), request.params)));
};

/** Opening a dashboard as the signed-in portal user (customer scope). */
export const analyticsSessionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { analytics } = app;
  const limited = { config: { rateLimit: { max: app.config.ANALYTICS_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 } } };

  // The server sign-in link lands here: the portal user is mapped to a dashboard member.
  // Opened through the link, its signed claims come along and are checked; plain navigation sends none.
  app.post('/analytics/:deploymentId/open', { ...limited, schema: { tags, params: tenantParamsSchema, body: openInputSchema.nullish(), response: replies(dashboardSessionSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await analytics.open(user, { ...request.params, link: request.body?.link }));
  });
};
