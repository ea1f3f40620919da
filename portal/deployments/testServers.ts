/** Servers for page tests (never imported by the app). */
import type { DeploymentPopulated } from '../../dataProvider/deployments';

export function testServer(over: Partial<DeploymentPopulated> = {}): DeploymentPopulated {
  return {
    _id: 'd-1',
    name: 'Shop analytics',
    status: 'running',
    flags: { free: false },
    company: 'c-acme',
    project: 'p-1',
    provider: { _id: 'prov-1', code: 'gcp' },
    subscription: { plan: 'plan-1', planCode: 'v3.mau_1_000_gcp.base', planConfig: { region: 'r-1', size: 's-1', features: [], provider: 'gcp' }, payment: { term: { cycle: 'month' } } },
    billing: {
      _id: 's-1',
      deploymentId: 'd-1',
      vendor: 'paddle',
      status: 'active',
      cycle: 'month',
      recurring: { amount: '49.00', currency: 'USD' },
      bill: { net: '49.00', tax: '0.00', gross: '49.00', currency: 'USD', basis: { country: null, rate: 0, kind: 'noCountry' } },
      currentPeriod: { startsAt: '2026-11-01T00:00:00.000Z', endsAt: '2026-12-01T00:00:00.000Z' },
      nextBilledAt: '2026-12-01T12:00:00.000Z',
      scheduledChange: null,
      pastDueSince: null,
      pauseAfter: null,
    },
    createdAt: '2026-11-01T00:00:00.000Z',
    plan: { _id: 'plan-1', name: 'Starter', code: 'v3.mau_1_000_gcp.base', mau: 1000 },
    region: { _id: 'r-1', name: 'US Central' },
    features: [{ _id: 'f-0', code: 'domain.custom', name: 'Custom domain', type: 'domain' }, { _id: 'f-1', code: 'backup.daily', name: 'Daily backup', type: 'backup' }],
    domain: { name: 'shop-d1.servers.example', custom: false, ssl: 'active', verified: true, verifiedAt: null, verification: [], check: null },
    url: 'https://shop-d1.servers.example',
    latestTask: null,
    health: { state: 'healthy', checkedAt: '2026-11-20T10:00:00.000Z' },
    mau: { used: 420, limit: 1000, forecast: null },
    terminationScheduledAt: null,
    restorableUntil: null,
    backupsEnabled: true,
    pendingPlan: null,
    mauHistory: [],
    ...over,
  };
}
