import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { mauAlertSettingsSchema } from '../../src/domain/usage/forecast';
import { companyUsageSchema, mauAlertsBodySchema, usageParamsSchema } from '../../src/domain/usage/schemas';
import { ok, replies } from './envelope';

const tags = ['billing'];

/** Management → Billing: MAU forecasts with the bills they lead to, and the MAU alert settings. */
export const usageRoutes: FastifyPluginAsyncZod = async (app) => {
  const { usage } = app;
  app.get('/companies/:id/usage', { schema: { tags, params: usageParamsSchema, response: replies(companyUsageSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await usage.companyUsage(user, { companyId: request.params.id, ip: request.ip }));
  });

  app.put('/companies/:id/usage-alerts', { schema: { tags, params: usageParamsSchema, body: mauAlertsBodySchema, response: replies(mauAlertSettingsSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await usage.setAlerts(user, { companyId: request.params.id, alerts: request.body }));
  });
};
