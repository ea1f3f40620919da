import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../../server/db/client';
import { analyticsTenants } from '../../../server/db/schema';
import type { Keyring } from '../../../server/services/secrets';
import { serverStateOf } from './access';

/**
 * Each tenant's health key: what a health check sends to its SDK endpoint (`/o/sdk`) to learn
 * that the endpoint answers for that tenant and what ingestion would answer now, without touching
 * any app. It is derived from the tenant id under the server secret (SECRET_KEYS), so the worker
 * can make it without storing it; only its SHA-256 is kept (`analytics_tenants.health_key_hash`).
 * It starts with `health-`, which no app key does (40 hex characters): `/i` never takes data with it.
 */
export const HEALTH_KEY_PREFIX = 'health-';
const PURPOSE = 'analytics-health-key';

export const isHealthKey = (appKey: string): boolean => appKey.startsWith(HEALTH_KEY_PREFIX);
export const healthKeyHash = (key: string): string => createHash('sha256').update(key).digest('hex');

/** What `/o/sdk` answers a health key when ingestion takes data: the tenant it reached. */
export interface SdkHealthAnswer {
  result: 'Success';
  tenant: string;
}

/**
 * The tenant's health key under the newest secret key, its hash stored first when it is not yet
 * (a tenant made before health keys, or SECRET_KEYS rotated). Read before written: an update of
 * the tenant row drops every cached app of the process (db/changes.ts), so it is written only when it differs.
 */
export async function healthKeyFor(db: Db, keyring: Keyring, tenantId: string): Promise<string> {
  const key = `${HEALTH_KEY_PREFIX}${keyring.mac(PURPOSE, tenantId)}`;
  const hash = healthKeyHash(key);
  const [row] = await db.select({ hash: analyticsTenants.healthKeyHash }).from(analyticsTenants).where(eq(analyticsTenants.id, tenantId));
  if (row && row.hash !== hash) await db.update(analyticsTenants).set({ healthKeyHash: hash }).where(eq(analyticsTenants.id, tenantId));
  return key;
}

/** The tenant a health key names and its server's state, or null when no tenant has it. */
export async function tenantOfHealthKey(db: Db, key: string) {
  const [tenant] = await db.select({ id: analyticsTenants.id, deploymentId: analyticsTenants.deploymentId }).from(analyticsTenants).where(eq(analyticsTenants.healthKeyHash, healthKeyHash(key)));
  const server = tenant ? await serverStateOf(db, tenant.deploymentId) : null;
  return tenant && server ? { tenantId: tenant.id, server } : null;
}
