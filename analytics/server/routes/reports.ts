import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { reportInputSchema, reportParamsSchema, reportPreviewSchema, reportSchema, reportStatusSchema, tenantParamsSchema } from '../../domain/schemas';
import { analyticsActor } from './actor';
import { noPayload, ok, replies } from '../../../server/routes/envelope';

const tags = ['analytics'];

/** The report manager of a deployment's dashboard: email reports, their switch, preview and "Send now". */
export const analyticsReportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { analytics } = app;
  const limited = { config: { rateLimit: { max: app.config.ANALYTICS_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 } } };

  app.get('/analytics/:deploymentId/reports', { ...limited, schema: { tags, params: tenantParamsSchema, response: replies(z.array(reportSchema)) } }, async (request) => ok(await analytics.listReports(await analyticsActor(request), request.params)));
  app.post('/analytics/:deploymentId/reports', { ...limited, schema: { tags, params: tenantParamsSchema, body: reportInputSchema, response: replies(reportSchema, 201) } }, async (request, reply) => {
    reply.code(201);
    return ok(await analytics.createReport(await analyticsActor(request), { ...request.params, report: request.body }));
  });
  app.put('/analytics/:deploymentId/reports/:reportId', { ...limited, schema: { tags, params: reportParamsSchema, body: reportInputSchema, response: replies(reportSchema) } }, async (request) =>
    ok(await analytics.updateReport(await analyticsActor(request), { ...request.params, report: request.body })),
  );
  app.put('/analytics/:deploymentId/reports/:reportId/status', { ...limited, schema: { tags, params: reportParamsSchema, body: reportStatusSchema, response: replies(reportSchema) } }, async (request) =>
    ok(await analytics.setReportEnabled(await analyticsActor(request), { ...request.params, enabled: request.body.enabled })),
  );
  app.delete('/analytics/:deploymentId/reports/:reportId', { ...limited, schema: { tags, params: reportParamsSchema, response: replies(noPayload) } }, async (request) => {
    await analytics.deleteReport(await analyticsActor(request), request.params);
    return ok(null);
  });
  app.get('/analytics/:deploymentId/reports/:reportId/preview', { ...limited, schema: { tags, params: reportParamsSchema, response: replies(reportPreviewSchema) } }, async (request) =>
    ok(await analytics.previewReport(await analyticsActor(request), request.params)),
  );
  app.post('/analytics/:deploymentId/reports/:reportId/send', { ...limited, schema: { tags, params: reportParamsSchema, body: z.object({}).optional(), response: replies(noPayload) } }, async (request) => {
    await analytics.sendReportNow(await analyticsActor(request), request.params);
    return ok(null);
  });
};
