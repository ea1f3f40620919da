import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../errors';
import { adminAppProfileReviewRoutes } from './appProfileReviews';
import { adminCompanyRoutes } from './companies';
import { adminDeploymentRoutes, adminDeploymentTaskRoutes } from './deployments';
import { adminJobRoutes } from './jobs';
import { adminLogRoutes } from './logs';
import { adminPlanGroupRoutes } from './planGroups';
import { adminUserRoutes } from './users';

/** The one guard of the admin area: a signed-in platform admin, checked before anything is read. */
async function platformAdmin(request: FastifyRequest) {
  const { user } = await request.requireSession();
  if (!user.isAdmin) throw new AppError('FORBIDDEN');
}

/**
 * The admin area, registered under `/api/v1/admin`: every route in this scope is guarded by the
 * hook below, and each resource is a shared listing (admin/listing.ts) over its service.
 */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preValidation', platformAdmin);
  await app.register(adminUserRoutes(app.adminUsers));
  await app.register(adminAppProfileReviewRoutes(app.tools));
  await app.register(adminCompanyRoutes(app.adminCompanies));
  await app.register(adminDeploymentRoutes(app.adminDeployments));
  await app.register(adminDeploymentTaskRoutes(app.adminDeploymentTasks));
  await app.register(adminJobRoutes(app.adminJobs));
  await app.register(adminLogRoutes(app.adminLogs));
  await app.register(adminPlanGroupRoutes(app.adminPlanGroups));
};
