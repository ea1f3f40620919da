import { z } from 'zod';
import { USER_EXPORT_COLUMNS, USER_SORT_FIELDS, type AdminUserService } from '../../services/adminUsers';
import { adminListing } from './listing';

/** A user as the admin list shows it. */
const adminUserRow = z.object({
  _id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  isAdmin: z.boolean(),
  emailVerified: z.boolean(),
  locked: z.boolean(),
  createdAt: z.string(),
});

/** Admin area: users (SPEC §2 admin routes), in ra-data-simple-rest form. */
export const adminUserRoutes = (service: AdminUserService) =>
  adminListing({
    resource: 'users',
    sortFields: USER_SORT_FIELDS,
    row: adminUserRow,
    columns: USER_EXPORT_COLUMNS,
    list: (actor, input) => service.list(actor, input),
    export: (actor, input) => service.export(actor, input),
  });
