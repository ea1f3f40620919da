import { eq } from 'drizzle-orm';
import { SDK_SETTINGS_DEFAULTS, type SdkConfigAnswer, type SdkSettings, type SdkSettingsAnswer } from '../../domain/sdk';
import type { Db } from '../../../server/db/client';
import { analyticsApps } from '../../../server/db/schema';
import { recordAudit } from '../../../server/services/audit';
import { appFor, type Access } from './access';
import { isHealthKey, tenantOfHealthKey, type SdkHealthAnswer } from './healthKey';
import { invalid, MAX_DEVICE_ID, MISSING, NO_APP, serverRefusal, unprintableParam, type IngestAnswer } from './ingest';
import type { IngestCache } from './ingestCache';
import { str, type IngestRequest } from './parse';

/**
 * What `/o/sdk` answers: the settings, an empty remote configuration, a health key's tenant, or
 * Countly's `{ result }` refusal (503 with `Retry-After` while the server is drained).
 */
export type SdkAnswer = { status: 200; body: SdkConfigAnswer | SdkHealthAnswer | Record<string, never> } | { status: 400 | 403 | 503; body: { result: string }; retryAfter?: number };

/** No app key is longer (ours are 40 characters); a longer one is refused rather than looked up. */
const MAX_APP_KEY = 200;
/** The SDKs' remote-config reads: Beacon has no remote configuration, so they get an empty one, as from a Countly app with none. */
const REMOTE_CONFIG_METHODS = new Set(['rc', 'fetch_remote_config']);

const refuse = (answer: IngestAnswer): SdkAnswer => (answer.status === 200 ? { status: 400, body: { result: answer.result } } : { status: answer.status, body: { result: answer.result }, ...(answer.retryAfter ? { retryAfter: answer.retryAfter } : {}) });

/**
 * GET or POST /o/sdk, the SDKs' read path: `method=sc` answers the app's SDK behaviour settings as
 * Countly's server does. The app and device are checked as /i checks them; nothing is written. A
 * drained server (restarting, being restored) answers 503 as /i does. A tenant's health key
 * (healthKey.ts) is answered with its tenant, or with what /i would answer now.
 */
export async function sdkConfig(db: Db, cache: IngestCache, request: IngestRequest, graceDays: number): Promise<SdkAnswer> {
  const { params } = request;
  const appKey = str(params.app_key);
  const deviceId = str(params.device_id);
  if (!appKey || !deviceId) return refuse(MISSING);
  const unprintable = unprintableParam(params, ['app_key', 'device_id', 'method']);
  if (unprintable) return refuse(unprintable);
  // /i cuts an overlong device id to store it; here nothing is stored, so it is refused as sent.
  if (appKey.length > MAX_APP_KEY) return refuse(invalid('app_key'));
  if (deviceId.length > MAX_DEVICE_ID) return refuse(invalid('device_id'));
  if (isHealthKey(appKey)) {
    const found = await tenantOfHealthKey(db, appKey);
    if (!found) return refuse(NO_APP);
    const refusal = serverRefusal(found.server, graceDays);
    return refusal ? refuse(refusal) : { status: 200, body: { result: 'Success', tenant: found.tenantId } };
  }
  const method = str(params.method) ?? '';
  if (method !== 'sc' && !REMOTE_CONFIG_METHODS.has(method)) return refuse(invalid('method'));
  const entry = await cache.app(db, appKey);
  if (!entry || (request.deploymentId && entry.deploymentId !== request.deploymentId)) return refuse(NO_APP);
  const drained = serverRefusal(entry.server, graceDays);
  if (drained?.status === 503) return refuse(drained);
  if (method !== 'sc') return { status: 200, body: {} };
  // The settings' time is the app's last change: the cache drops the app whenever it changes.
  return { status: 200, body: { v: 2, t: entry.app.updatedAt.getTime(), c: entry.app.sdkSettings } };
}

const answer = (app: { sdkSettings: SdkSettings; updatedAt: Date }): SdkSettingsAnswer => ({ settings: app.sdkSettings, defaults: SDK_SETTINGS_DEFAULTS, updatedAt: app.updatedAt.toISOString() });

export async function getSdkSettings(tx: Db, access: Access, appId: string): Promise<SdkSettingsAnswer> {
  return answer(await appFor(tx, access, appId, 'read'));
}

/** The app's admins replace its SDK settings; the SDKs pick them up at their next fetch (every few hours). */
export async function updateSdkSettings(tx: Db, access: Access, appId: string, settings: SdkSettings): Promise<SdkSettingsAnswer> {
  const app = await appFor(tx, access, appId, 'admin');
  const [updated] = await tx.update(analyticsApps).set({ sdkSettings: settings, updatedAt: new Date() }).where(eq(analyticsApps.id, app.id)).returning();
  await recordAudit(tx, { actor: access.audit, action: 'analyticsApp.sdkSettings', targetType: 'analyticsApp', targetId: app.id, companyId: access.companyId, before: app.sdkSettings, after: settings });
  return answer(updated ?? app);
}
