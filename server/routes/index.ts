import type { FastifyPluginAsync } from 'fastify';
import { formsPlugin } from '../plugins/forms';
import { sessionPlugin } from '../plugins/session';
import { adminRoutes } from './admin';
import { analyticsRoutes } from './analytics';
import { authRoutes } from './auth';
import { companyRoutes } from './companies';
import { contentRoutes } from './content';
import { deploymentRoutes } from './deployments';
import { orderRoutes } from './orders';
import { passkeyRoutes } from './passkeys';
import { docsRoutes } from './docs';
import { fileRoutes } from './files';
import { healthRoutes } from './health';
import { planRoutes } from './plans';
import { projectRoutes } from './projects';
import { toolsRoutes } from './tools';
import { userRoutes } from './users';
import { viewAsRoutes } from './viewAs';

/**
 * The API under /api/v1: sessions (with the cross-site guard) and forms for every area, then one
 * plugin per area. The admin area is one scope under /admin with its own guard.
 */
export const apiRoutes: FastifyPluginAsync = async (api) => {
  await api.register(sessionPlugin);
  await api.register(formsPlugin);
  api.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
  await api.register(healthRoutes);
  await api.register(planRoutes);
  await api.register(contentRoutes);
  await api.register(deploymentRoutes);
  await api.register(orderRoutes);
  await api.register(authRoutes);
  await api.register(passkeyRoutes);
  await api.register(userRoutes);
  await api.register(companyRoutes);
  await api.register(projectRoutes);
  await api.register(fileRoutes);
  await api.register(analyticsRoutes);
  await api.register(toolsRoutes);
  await api.register(viewAsRoutes);
  await api.register(adminRoutes, { prefix: '/admin' });
  await api.register(docsRoutes);
};
