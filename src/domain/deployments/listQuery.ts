import { z } from 'zod';
import { listQuerySchema, rangeParam, type ListDialect } from '../listQuery';
import { DEPLOYMENT_STATUSES } from '../orders/schemas';

/**
 * The servers list's query, for both lists of servers: a company's (customer `GET /deployments`)
 * and every company's (admin `GET /admin/deployments`). One dialect; the admin list sorts and
 * filters by more, because it shows more columns.
 */

/** Fields the customer list sorts by (the id follows, so pages never overlap). */
export const DEPLOYMENT_SORT_FIELDS = ['createdAt', 'name', 'status'] as const;
export type DeploymentSortField = (typeof DEPLOYMENT_SORT_FIELDS)[number];
/** The admin list's columns it sorts by. */
export const ADMIN_DEPLOYMENT_SORT_FIELDS = ['_id', 'name', 'companyName', 'status', 'planCode', 'planName', 'regionName', 'subscriptionStatus', 'createdAt'] as const;
export type AdminDeploymentSortField = (typeof ADMIN_DEPLOYMENT_SORT_FIELDS)[number];

/** MAU over or projected over the tier. */
export const MAU_TIER_FILTERS = ['overOrProjected'] as const;

const deploymentFilters = { status: z.enum(DEPLOYMENT_STATUSES, { error: 'validation.invalid' }).optional() };
/** The admin list's own filters: status, company and MAU tier. */
export const adminDeploymentFilters = {
  ...deploymentFilters,
  mau: z.enum(MAU_TIER_FILTERS, { error: 'validation.invalid' }).optional(),
  companyId: z.string().max(64).optional(),
};

const NEWEST: ['createdAt', 'DESC'] = ['createdAt', 'DESC'];

export const deploymentListDialect: ListDialect<typeof DEPLOYMENT_SORT_FIELDS, typeof deploymentFilters> = { sortFields: DEPLOYMENT_SORT_FIELDS, filters: deploymentFilters, defaultSort: NEWEST };
export const adminDeploymentListDialect: ListDialect<typeof ADMIN_DEPLOYMENT_SORT_FIELDS, typeof adminDeploymentFilters> = {
  sortFields: ADMIN_DEPLOYMENT_SORT_FIELDS,
  filters: adminDeploymentFilters,
  defaultSort: NEWEST,
};

/**
 * Customer `GET /deployments?company&project`: paged like every list when `range` is given
 * (Content-Range answers the total); without it, the newest 1,000.
 */
export const deploymentListQuerySchema = listQuerySchema(deploymentListDialect).extend({
  company: z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(64, 'validation.invalid'),
  project: z.string().trim().max(64, 'validation.invalid').optional(),
  range: rangeParam.optional(),
});
export type DeploymentListQuery = z.infer<typeof deploymentListQuerySchema>;
