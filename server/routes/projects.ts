import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { projectBodySchema, projectDtoSchema, projectListParamsSchema, projectParamsSchema } from '../../src/domain/projects/schemas';
import { noPayload, ok, replies } from './envelope';

const tags = ['projects'];

/** Management › Project (customer scope): a company's projects; membership and role are checked in the service. */
export const projectRoutes: FastifyPluginAsyncZod = async (app) => {
  const { projects } = app;
  app.get('/companies/:id/projects', { schema: { tags, params: projectListParamsSchema, response: replies(z.array(projectDtoSchema)) } }, async (request) => {
    const user = request.actor;
    return ok(await projects.list(user, { companyId: request.params.id }));
  });

  app.post('/companies/:id/projects', { schema: { tags, params: projectListParamsSchema, body: projectBodySchema, response: replies(projectDtoSchema, 201) } }, async (request, reply) => {
    const user = request.actor;
    return reply.status(201).send(ok(await projects.create(user, { companyId: request.params.id, name: request.body.name })));
  });

  app.put('/companies/:id/projects/:projectId', { schema: { tags, params: projectParamsSchema, body: projectBodySchema, response: replies(projectDtoSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await projects.rename(user, { companyId: request.params.id, projectId: request.params.projectId, name: request.body.name }));
  });

  app.delete('/companies/:id/projects/:projectId', { schema: { tags, params: projectParamsSchema, response: replies(noPayload) } }, async (request) => {
    const user = request.actor;
    await projects.remove(user, { companyId: request.params.id, projectId: request.params.projectId });
    return ok(null);
  });
};
