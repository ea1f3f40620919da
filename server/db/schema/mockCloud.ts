// Mock cloud: the stand-in provider's own machines and calls.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, createdAt } from './columns';

/**
 * The mock-cloud provider's own state (it stands for a cloud, so no foreign keys to ours): its
 * machines, its snapshots, and every call it answered. A call carries a request key; the same key
 * twice is answered from the first result, as real cloud APIs do with request ids.
 */
export const mockCloudMachines = pgTable('mock_cloud_machines', {
  id: text('id').primaryKey(),
  deploymentId: uuid('deployment_id').notNull(),
  status: text('status').$type<'booting' | 'running' | 'paused' | 'destroyed'>().notNull(),
  region: text('region'),
  size: integer('size'),
  domain: text('domain'),
  ssl: boolean('ssl').notNull().default(false),
  readyAt: timestamp('ready_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
  destroyedAt: timestamp('destroyed_at', { withTimezone: true }),
});

export const mockCloudCalls = pgTable(
  'mock_cloud_calls',
  {
    id: id(),
    op: text('op').notNull(),
    deploymentId: uuid('deployment_id').notNull(),
    requestKey: text('request_key').notNull(),
    /** applied (did the work), replayed (same request key: answered from the first), failed (simulated failure). */
    outcome: text('outcome').$type<'applied' | 'replayed' | 'failed'>().notNull(),
    result: jsonb('result').$type<Record<string, unknown> | null>(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mock_cloud_calls_deployment_op').on(t.deploymentId, t.op), uniqueIndex('mock_cloud_calls_applied_key').on(t.requestKey).where(sql`outcome = 'applied'`)],
);
