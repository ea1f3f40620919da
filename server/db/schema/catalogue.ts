// Catalogue: what is sold (providers, regions, sizes, features, plans, plan groups, billing cycles).
import { index, integer, pgEnum, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { AVAILABILITY, BILLING_CYCLES, FEATURE_TYPES, PLAN_TYPES, STATUSES } from '../../../src/domain/constants';
import { id, createdAt, updatedAt } from './columns';

export const statusEnum = pgEnum('status', STATUSES);
export const availabilityEnum = pgEnum('availability', AVAILABILITY);
export const planTypeEnum = pgEnum('plan_type', PLAN_TYPES);
export const featureTypeEnum = pgEnum('feature_type', FEATURE_TYPES);

/** Monthly or yearly; here rather than in billing.ts because servers.ts needs it and billing.ts imports servers.ts. */
export const billingCycleEnum = pgEnum('billing_cycle', BILLING_CYCLES);

export const providers = pgTable('providers', {
  id: id(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  status: statusEnum('status').notNull().default('active'),
  createdAt: createdAt(),
});

export const regions = pgTable(
  'regions',
  {
    id: id(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    order: integer('order').notNull(),
    /** Default monthly surcharge in cents; a plan may set its own in plan_regions. */
    priceCents: integer('price_cents').notNull().default(0),
    status: statusEnum('status').notNull().default('active'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('regions_provider_code_unique').on(t.providerId, t.code)],
);

export const sizes = pgTable(
  'sizes',
  {
    id: id(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    code: text('code').notNull(),
    /** Monthly active users the size is built for. */
    value: integer('value').notNull(),
    order: integer('order').notNull(),
    status: statusEnum('status').notNull().default('active'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('sizes_provider_code_unique').on(t.providerId, t.code)],
);

export const features = pgTable('features', {
  id: id(),
  code: text('code').notNull().unique(),
  type: featureTypeEnum('type').notNull(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  order: integer('order').notNull(),
  /** Default monthly price in cents; a plan may set its own in plan_features. */
  priceCents: integer('price_cents').notNull().default(0),
  status: statusEnum('status').notNull().default('active'),
  createdAt: createdAt(),
});

export const plans = pgTable(
  'plans',
  {
    id: id(),
    code: text('code').notNull().unique(),
    name: text('name').notNull(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    status: statusEnum('status').notNull().default('active'),
    priority: integer('priority').notNull(),
    type: planTypeEnum('type').notNull().default('regular'),
    basePriceCents: integer('base_price_cents').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('plans_status_priority').on(t.status, t.priority)],
);

/** A plan's regions[]: which regions it offers and at what monthly surcharge. */
export const planRegions = pgTable(
  'plan_regions',
  {
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    regionId: uuid('region_id')
      .notNull()
      .references(() => regions.id),
    status: availabilityEnum('status').notNull().default('available'),
    priceCents: integer('price_cents').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.planId, t.regionId] })],
);

/** A plan's features[]: which features it offers and at what monthly price. */
export const planFeatures = pgTable(
  'plan_features',
  {
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    featureId: uuid('feature_id')
      .notNull()
      .references(() => features.id),
    status: availabilityEnum('status').notNull().default('available'),
    priceCents: integer('price_cents').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.planId, t.featureId] })],
);

export const planGroups = pgTable('plan_groups', {
  id: id(),
  name: text('name').notNull().unique(),
  description: text('description').notNull().default(''),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const planGroupPlans = pgTable(
  'plan_group_plans',
  {
    planGroupId: uuid('plan_group_id')
      .notNull()
      .references(() => planGroups.id, { onDelete: 'cascade' }),
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.planGroupId, t.planId] })],
);
