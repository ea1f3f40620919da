import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { appProfileReviewRowSchema } from '../../../src/domain/tools/schemas';
import { REVIEW_EXPORT_COLUMNS, REVIEW_SORT_FIELDS } from '../../services/tools';
import { adminListing } from './listing';

/** Admin area: the free app profile review requests, in ra-data-simple-rest form. */
export const adminAppProfileReviewRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.tools;
  await app.register(
    adminListing({
      resource: 'appProfileReviews',
      sortFields: REVIEW_SORT_FIELDS,
      row: appProfileReviewRowSchema,
      columns: REVIEW_EXPORT_COLUMNS,
      list: (actor, input) => service.list(actor, input),
      export: (actor, input) => service.export(actor, input),
    }),
  );
};
