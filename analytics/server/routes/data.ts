import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  appParamsSchema,
  appUserParamsSchema,
  appUserSchema,
  createdTokenSchema,
  eventParamsSchema,
  eventSchema,
  eventSeriesSchema,
  eventTotalsSchema,
  eventUpdateSchema,
  groupInputSchema,
  groupParamsSchema,
  groupSchema,
  jobSchema,
  limitsAnswerSchema,
  overviewSchema,
  periodQuerySchema,
  purgeSchema,
  seriesQuerySchema,
  sessionsSchema,
  tenantParamsSchema,
  tilesInputSchema,
  tileSchema,
  tokenInputSchema,
  tokenParamsSchema,
  tokenSchema,
  topEventsQuerySchema,
  topEventsSchema,
} from '../../domain/schemas';
import { viewListSchema } from '../../domain/views';
import { analyticsActor } from './actor';
import { okPage } from './listing';
import { tokenListQuerySchema } from '../../domain/listing';
import { noPayload, ok, replies } from '../../../server/routes/envelope';

const tags = ['analytics'];

/** The dashboard's data screens: events, groups, overview, sessions, limits, tokens and app users. */
export const analyticsDataRoutes: FastifyPluginAsyncZod = async (app) => {
  const { analytics } = app;
  // Per address: tokens and API keys are not guessable, but nobody needs more than this from one place.
  const limited = { config: { rateLimit: { max: app.config.ANALYTICS_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 } } };
  const base = '/analytics/:deploymentId/apps/:appId';

  app.get(`${base}/events`, { ...limited, schema: { tags, params: appParamsSchema, querystring: periodQuerySchema, response: replies(eventTotalsSchema) } }, async (request) =>
    ok(await analytics.listEvents(await analyticsActor(request), { ...request.params, ...request.query })),
  );
  app.get(`${base}/events/:key/series`, { ...limited, schema: { tags, params: eventParamsSchema, querystring: seriesQuerySchema, response: replies(eventSeriesSchema) } }, async (request) =>
    ok(await analytics.eventSeries(await analyticsActor(request), { ...request.params, ...request.query })),
  );
  app.put(`${base}/events/:key`, { ...limited, schema: { tags, params: eventParamsSchema, body: eventUpdateSchema, response: replies(eventSchema) } }, async (request) =>
    ok(await analytics.updateEvent(await analyticsActor(request), { ...request.params, event: request.body })),
  );
  app.get(`${base}/top-events`, { ...limited, schema: { tags, params: appParamsSchema, querystring: topEventsQuerySchema, response: replies(topEventsSchema) } }, async (request) =>
    ok(await analytics.topEvents(await analyticsActor(request), { ...request.params, window: request.query.window })),
  );

  app.get(`${base}/groups`, { ...limited, schema: { tags, params: appParamsSchema, response: replies(z.array(groupSchema)) } }, async (request) => ok(await analytics.listGroups(await analyticsActor(request), request.params)));
  app.post(`${base}/groups`, { ...limited, schema: { tags, params: appParamsSchema, body: groupInputSchema, response: replies(groupSchema, 201) } }, async (request, reply) => {
    reply.code(201);
    return ok(await analytics.saveGroup(await analyticsActor(request), { ...request.params, groupId: null, group: request.body }));
  });
  app.put(`${base}/groups/:groupId`, { ...limited, schema: { tags, params: groupParamsSchema, body: groupInputSchema, response: replies(groupSchema) } }, async (request) =>
    ok(await analytics.saveGroup(await analyticsActor(request), { ...request.params, group: request.body })),
  );
  app.delete(`${base}/groups/:groupId`, { ...limited, schema: { tags, params: groupParamsSchema, response: replies(noPayload) } }, async (request) => {
    await analytics.deleteGroup(await analyticsActor(request), request.params);
    return ok(null);
  });

  app.get(`${base}/overview`, { ...limited, schema: { tags, params: appParamsSchema, querystring: periodQuerySchema, response: replies(overviewSchema) } }, async (request) =>
    ok(await analytics.overview(await analyticsActor(request), { ...request.params, ...request.query })),
  );
  app.put(`${base}/overview`, { ...limited, schema: { tags, params: appParamsSchema, body: tilesInputSchema, response: replies(z.array(tileSchema)) } }, async (request) =>
    ok(await analytics.saveTiles(await analyticsActor(request), { ...request.params, tiles: request.body.tiles })),
  );
  app.get(`${base}/sessions`, { ...limited, schema: { tags, params: appParamsSchema, querystring: periodQuerySchema, response: replies(sessionsSchema) } }, async (request) =>
    ok(await analytics.sessions(await analyticsActor(request), { ...request.params, ...request.query })),
  );
  app.get(`${base}/views`, { ...limited, schema: { tags, params: appParamsSchema, querystring: periodQuerySchema, response: replies(viewListSchema) } }, async (request) =>
    ok(await analytics.listViews(await analyticsActor(request), { ...request.params, ...request.query })),
  );
  app.get(`${base}/limits`, { ...limited, schema: { tags, params: appParamsSchema, response: replies(limitsAnswerSchema) } }, async (request) => ok(await analytics.limits(await analyticsActor(request), request.params)));

  app.get(`${base}/app-users/:deviceId`, { ...limited, schema: { tags, params: appUserParamsSchema, response: replies(appUserSchema) } }, async (request) => ok(await analytics.findAppUser(await analyticsActor(request), request.params)));
  app.post(`${base}/app-users/:deviceId/export`, { ...limited, schema: { tags, params: appUserParamsSchema, body: z.object({}).optional(), response: replies(jobSchema, 201) } }, async (request, reply) => {
    reply.code(201);
    return ok(await analytics.exportAppUser(await analyticsActor(request), request.params));
  });
  app.post(`${base}/app-users/:deviceId/purge`, { ...limited, schema: { tags, params: appUserParamsSchema, body: purgeSchema, response: replies(noPayload) } }, async (request) => {
    await analytics.purgeAppUser(await analyticsActor(request), request.params);
    return ok(null);
  });

  app.get('/analytics/:deploymentId/tokens', { ...limited, schema: { tags, params: tenantParamsSchema, querystring: tokenListQuerySchema, response: replies(z.array(tokenSchema)) } }, async (request, reply) =>
    okPage(reply, await analytics.listTokens(await analyticsActor(request), { ...request.params, query: request.query })),
  );
  app.post('/analytics/:deploymentId/tokens', { ...limited, schema: { tags, params: tenantParamsSchema, body: tokenInputSchema, response: replies(createdTokenSchema, 201) } }, async (request, reply) => {
    reply.code(201);
    return ok(await analytics.createToken(await analyticsActor(request), { ...request.params, token: request.body }));
  });
  app.delete('/analytics/:deploymentId/tokens/:tokenId', { ...limited, schema: { tags, params: tokenParamsSchema, response: replies(noPayload) } }, async (request) => {
    await analytics.deleteToken(await analyticsActor(request), request.params);
    return ok(null);
  });
};
