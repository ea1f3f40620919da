import { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AppError } from '../../errors';
import { exportLines } from '../../services/exportStream';
import { exportUsers, listUsers, USER_EXPORT_COLUMNS, USER_SORT_FIELDS } from '../../services/adminUsers';
import { ok } from '../envelope';
import { exportFormatSchema, listQuerySchema } from '../listQuery';

const query = listQuerySchema(USER_SORT_FIELDS);

/** Admin area: users (SPEC §2 admin routes), in ra-data-simple-rest form, platform admins only. */
export const adminUserRoutes: FastifyPluginAsync = async (app) => {
  const requireAdmin = async (request: FastifyRequest) => {
    const { user } = await request.requireSession();
    if (!user.isAdmin) throw new AppError('FORBIDDEN');
  };

  app.get('/admin/users', async (request, reply) => {
    await requireAdmin(request);
    const { sort, range, filter } = query.parse(request.query);
    const { rows, total } = await listUsers(app.database.db, { sort, q: filter.q }, range);
    const end = rows.length ? range[0] + rows.length - 1 : range[0];
    reply.header('content-range', `users ${range[0]}-${end}/${total}`);
    return ok(rows);
  });

  app.get('/admin/users/export', async (request, reply) => {
    await requireAdmin(request);
    const { sort, filter } = query.parse(request.query);
    const format = exportFormatSchema.parse((request.query as { format?: unknown }).format);
    const date = new Date().toISOString().slice(0, 10);
    reply
      .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="users-${date}.${format}"`);
    return reply.send(Readable.from(exportLines(format, [...USER_EXPORT_COLUMNS], exportUsers(app.database.db, { sort, q: filter.q }))));
  });
};
