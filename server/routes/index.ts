import type { FastifyPluginAsync } from 'fastify';
import { formsPlugin } from '../plugins/forms';
import { guardCompanyAccess } from '../plugins/companyAccess';
import { API_PREFIX } from '../plugins/routeSchemas';
import { platformAdmin, sessionPlugin, signedIn } from '../plugins/session';
import { adminAppProfileReviewRoutes } from './admin/appProfileReviews';
import { adminCompanyRoutes } from './admin/companies';
import { adminDeploymentRoutes, adminDeploymentTaskRoutes } from './admin/deployments';
import { adminJobRoutes } from './admin/jobs';
import { adminLogRoutes } from './admin/logs';
import { adminPlanGroupRoutes } from './admin/planGroups';
import { adminUserRoutes } from './admin/users';
import { analyticsRoutes, analyticsSessionRoutes } from '../../analytics/server/routes/index';
import { analyticsDataRoutes } from '../../analytics/server/routes/data';
import { analyticsReportRoutes } from '../../analytics/server/routes/reports';
import { authPublicRoutes, authRoutes } from './auth';
import { companyPublicRoutes, companyRoutes } from './companies';
import { contentRoutes } from './content';
import { deploymentPublicRoutes, deploymentRoutes } from './deployments';
import { devMailboxRoutes } from './devMailbox';
import { docsRoutes } from './docs';
import { edgeAdminRoutes, edgeCustomerRoutes, edgeRoutes } from './edge';
import { fileRoutes } from './files';
import { healthRoutes } from './health';
import { ingestRoutes } from '../../analytics/server/routes/ingest';
import { orderPublicRoutes, orderRoutes } from './orders';
import { passkeyPublicRoutes, passkeyRoutes } from './passkeys';
import { paymentPublicRoutes, paymentRoutes } from './payments';
import { planPublicRoutes, planRoutes } from './plans';
import { projectRoutes } from './projects';
import { usageRoutes } from './usage';
import { quoteRoutes } from './quotes';
import { toolsRoutes } from './tools';
import { userPublicRoutes, userRoutes } from './users';
import { viewAsRoutes } from './viewAs';

/**
 * The API under /api/v1, in three scopes. Sessions (with the cross-site guard) and forms apply to
 * all of them. Each scope's one hook guards every route in it, so a route module never checks the
 * session itself: handlers read `request.actor`.
 */
const apiRoutes: FastifyPluginAsync = async (api) => {
  await api.register(sessionPlugin);
  await api.register(formsPlugin);
  api.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });

  // Public: visitors sign in and up, read the catalogue and prices, and Paddle calls back.
  // The dashboards' routes resolve their caller (token, API key or session) in the service.
  await api.register(async (open) => {
    await open.register(healthRoutes);
    await open.register(planPublicRoutes);
    await open.register(contentRoutes);
    await open.register(deploymentPublicRoutes);
    await open.register(orderPublicRoutes);
    await open.register(paymentPublicRoutes);
    await open.register(authPublicRoutes);
    await open.register(passkeyPublicRoutes);
    await open.register(userPublicRoutes);
    await open.register(companyPublicRoutes);
    await open.register(fileRoutes);
    await open.register(analyticsRoutes);
    await open.register(analyticsDataRoutes);
    await open.register(analyticsReportRoutes);
    await open.register(toolsRoutes);
    await open.register(docsRoutes);
    await open.register(edgeRoutes);
  });

  // Customer: a signed-in user; a request without a session is refused (401) before its body is read.
  await api.register(async (customer) => {
    customer.addHook('preValidation', signedIn);
    // Then the company role the route needs (ROUTE_ACCESS), before the body is read.
    guardCompanyAccess(customer);
    await customer.register(planRoutes);
    await customer.register(deploymentRoutes);
    await customer.register(edgeCustomerRoutes);
    await customer.register(orderRoutes);
    await customer.register(paymentRoutes);
    await customer.register(authRoutes);
    await customer.register(passkeyRoutes);
    await customer.register(userRoutes);
    await customer.register(companyRoutes);
    await customer.register(projectRoutes);
    await customer.register(usageRoutes);
    await customer.register(quoteRoutes);
    await customer.register(analyticsSessionRoutes);
    // Leaving a read-only view: outside the admin scope, as the session acts as a company admin then.
    await customer.register(viewAsRoutes);
  });

  // Admin, under /admin: a signed-in platform admin; each resource is a shared listing (admin/listing.ts).
  await api.register(
    async (admin) => {
      admin.addHook('preValidation', platformAdmin);
      await admin.register(adminUserRoutes);
      await admin.register(adminAppProfileReviewRoutes);
      await admin.register(adminCompanyRoutes);
      await admin.register(adminDeploymentRoutes);
      await admin.register(edgeAdminRoutes);
      await admin.register(adminDeploymentTaskRoutes);
      await admin.register(adminJobRoutes);
      await admin.register(adminLogRoutes);
      await admin.register(adminPlanGroupRoutes);
    },
    { prefix: '/admin' },
  );
};

/** Every route of the product, registered here and nowhere else (app.ts registers this plugin once). */
export const routes: FastifyPluginAsync = async (app) => {
  await app.register(apiRoutes, { prefix: API_PREFIX });
  // The analytics SDKs' endpoints sit at the root, as Countly's do (see ingest.ts).
  await app.register(ingestRoutes);
  await app.register(devMailboxRoutes);
};
