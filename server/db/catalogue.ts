import type { Availability, FeatureType, PlanType } from '../../src/domain/constants';

/**
 * The demo plan catalogue and configurables seeded on first start (SPEC §3, §9).
 * Prices are monthly, in integer cents. Rows are inserted only when their code is missing, so
 * edits made later by platform admins survive restarts.
 */

export interface ProviderSeed {
  code: string;
  name: string;
}
export interface RegionSeed {
  provider: string;
  code: string;
  name: string;
  order: number;
  priceCents: number;
}
export interface SizeSeed {
  provider: string;
  code: string;
  value: number;
  order: number;
}
export interface FeatureSeed {
  code: string;
  type: FeatureType;
  name: string;
  description: string;
  order: number;
  priceCents: number;
}
export interface PlanSeed {
  code: string;
  name: string;
  provider: string;
  priority: number;
  type: PlanType;
  basePriceCents: number;
  regions: { code: string; status: Availability; priceCents: number }[];
  features: { code: string; status: Availability; priceCents: number }[];
}

export const PROVIDERS: ProviderSeed[] = [
  { code: 'gcp', name: 'Google Cloud' },
  { code: 'mock-cloud', name: 'Mock Cloud' },
];

// The US-central region comes first: it is the default (SPEC §9).
export const REGIONS: RegionSeed[] = [
  { provider: 'gcp', code: 'us-central1', name: 'Iowa, USA', order: 1, priceCents: 0 },
  { provider: 'gcp', code: 'us-east1', name: 'South Carolina, USA', order: 2, priceCents: 0 },
  { provider: 'gcp', code: 'europe-west1', name: 'Belgium, Europe', order: 3, priceCents: 1000 },
  { provider: 'gcp', code: 'europe-west3', name: 'Frankfurt, Germany', order: 4, priceCents: 1500 },
  { provider: 'gcp', code: 'asia-southeast1', name: 'Singapore', order: 5, priceCents: 2000 },
  { provider: 'gcp', code: 'australia-southeast1', name: 'Sydney, Australia', order: 6, priceCents: 2500 },
  { provider: 'gcp', code: 'southamerica-east1', name: 'São Paulo, Brazil', order: 7, priceCents: 2500 },
  { provider: 'mock-cloud', code: 'mock-local', name: 'Mock region', order: 1, priceCents: 0 },
];

const TIERS: { mau: number; name: string; basePriceCents: number }[] = [
  { mau: 500, name: 'Free', basePriceCents: 0 },
  { mau: 1_000, name: 'Starter', basePriceCents: 4_900 },
  { mau: 5_000, name: 'Basic', basePriceCents: 9_900 },
  { mau: 10_000, name: 'Growth', basePriceCents: 14_900 },
  { mau: 25_000, name: 'Team', basePriceCents: 24_900 },
  { mau: 50_000, name: 'Pro', basePriceCents: 39_900 },
  { mau: 100_000, name: 'Business', basePriceCents: 64_900 },
  { mau: 250_000, name: 'Scale', basePriceCents: 119_900 },
  { mau: 500_000, name: 'Premium', basePriceCents: 199_900 },
  { mau: 1_000_000, name: 'Enterprise', basePriceCents: 349_900 },
  { mau: 2_500_000, name: 'Enterprise Plus', basePriceCents: 699_900 },
  { mau: 5_000_000, name: 'Enterprise Max', basePriceCents: 1_199_900 },
];

/** `1000` → `1_000`, the form plan codes use. */
export function tierCode(mau: number): string {
  return String(mau).replace(/\B(?=(\d{3})+(?!\d))/g, '_');
}

export const SIZES: SizeSeed[] = [
  ...TIERS.map((t, i) => ({ provider: 'gcp', code: `mau_${tierCode(t.mau)}`, value: t.mau, order: i + 1 })),
  { provider: 'mock-cloud', code: 'mau_500', value: 500, order: 1 },
  { provider: 'mock-cloud', code: 'mau_1_000', value: 1_000, order: 2 },
];

export const FEATURES: FeatureSeed[] = [
  { code: 'feature.base', type: 'feature', name: 'Core analytics', description: 'Events, sessions, users and dashboards.', order: 0, priceCents: 0 },
  { code: 'feature.funnels', type: 'feature', name: 'Funnels', description: 'See where users drop off on the way to a goal.', order: 1, priceCents: 1_900 },
  { code: 'feature.cohorts', type: 'feature', name: 'Cohorts', description: 'Group users by behaviour and follow them over time.', order: 2, priceCents: 1_900 },
  { code: 'feature.retention', type: 'feature', name: 'Retention analysis', description: 'Measure how often users come back.', order: 3, priceCents: 1_900 },
  { code: 'feature.ab-testing', type: 'feature', name: 'A/B testing', description: 'Run experiments and compare variants.', order: 4, priceCents: 3_900 },
  { code: 'feature.crash-analytics', type: 'feature', name: 'Crash analytics', description: 'Crash reports with stack traces and affected users.', order: 5, priceCents: 2_900 },
  { code: 'feature.push', type: 'feature', name: 'Push notifications', description: 'Send targeted push messages to app users.', order: 6, priceCents: 2_900 },
  { code: 'feature.remote-config', type: 'feature', name: 'Remote config', description: 'Change app behaviour without a release.', order: 7, priceCents: 1_900 },
  { code: 'feature.surveys', type: 'feature', name: 'Surveys and ratings', description: 'Ask users for feedback in the app.', order: 8, priceCents: 1_900 },
  { code: 'feature.directory-sync', type: 'feature', name: 'Directory sync', description: 'Sync users and groups from your identity provider.', order: 9, priceCents: 4_900 },
  { code: 'capability.sso', type: 'capability', name: 'Single sign-on', description: 'SAML and OIDC sign-in to the dashboard.', order: 1, priceCents: 4_900 },
  { code: 'capability.audit-log', type: 'capability', name: 'Audit log', description: 'Who changed what, and when.', order: 2, priceCents: 1_900 },
  { code: 'domain.default', type: 'domain', name: 'Hosted subdomain', description: 'Your server on a subdomain we host, with TLS.', order: 1, priceCents: 0 },
  { code: 'domain.custom', type: 'domain', name: 'Custom domain', description: 'Your own domain, with a managed TLS certificate.', order: 2, priceCents: 1_000 },
  { code: 'retention.6m', type: 'retention', name: '6 months', description: 'Raw data kept for 6 months.', order: 1, priceCents: 0 },
  { code: 'retention.12m', type: 'retention', name: '12 months', description: 'Raw data kept for 12 months.', order: 2, priceCents: 2_000 },
  { code: 'retention.24m', type: 'retention', name: '24 months', description: 'Raw data kept for 24 months.', order: 3, priceCents: 4_000 },
  { code: 'retention.60m', type: 'retention', name: '5 years', description: 'Raw data kept for 5 years.', order: 4, priceCents: 8_000 },
  { code: 'backup.daily', type: 'backup', name: 'Daily backup', description: 'A snapshot every day, kept for 7 days.', order: 1, priceCents: 0 },
  { code: 'backup.hourly', type: 'backup', name: 'Hourly backup', description: 'A snapshot every hour, kept for 7 days.', order: 2, priceCents: 3_000 },
];

/** Larger servers cost more to run every option on, so option prices scale with the tier. */
function tierFactor(mau: number): number {
  if (mau <= 10_000) return 1;
  if (mau <= 100_000) return 2;
  if (mau <= 1_000_000) return 4;
  return 8;
}

// The options every free plan includes at no cost: the default domain, retention and backup.
const FREE_INCLUDED = new Set(['feature.base', 'domain.default', 'retention.6m', 'backup.daily']);
// Not sold yet: listed so that the catalogue shows what is coming.
const COMING_SOON = new Set(['feature.surveys']);

function gcpPlan(tier: (typeof TIERS)[number], index: number): PlanSeed {
  const free = tier.basePriceCents === 0;
  const factor = tierFactor(tier.mau);
  return {
    code: `v3.mau_${tierCode(tier.mau)}_gcp.base`,
    name: tier.name,
    provider: 'gcp',
    priority: index + 1,
    type: free ? 'free_forever' : 'regular',
    basePriceCents: tier.basePriceCents,
    regions: REGIONS.filter((r) => r.provider === 'gcp').map((r) => ({
      code: r.code,
      // Free plans cannot change region (SPEC §4): only the default one is offered.
      status: free ? (r.order === 1 ? 'available' : 'not_available') : r.code === 'southamerica-east1' ? 'coming_soon' : 'available',
      priceCents: r.priceCents * factor,
    })),
    features: FEATURES.map((f) => ({
      code: f.code,
      status: COMING_SOON.has(f.code) ? 'coming_soon' : free && !FREE_INCLUDED.has(f.code) ? 'not_available' : 'available',
      priceCents: f.priceCents * factor,
    })),
  };
}

export const PLANS: PlanSeed[] = [
  ...TIERS.map(gcpPlan),
  {
    code: 'v3.mau_500_mock-cloud.base',
    name: 'Mock Free',
    provider: 'mock-cloud',
    priority: 100,
    type: 'free_forever',
    basePriceCents: 0,
    regions: [{ code: 'mock-local', status: 'available', priceCents: 0 }],
    features: FEATURES.map((f) => ({ code: f.code, status: FREE_INCLUDED.has(f.code) ? 'available' : 'not_available', priceCents: 0 })),
  },
  {
    code: 'v3.mau_1_000_mock-cloud.base',
    name: 'Mock Starter',
    provider: 'mock-cloud',
    priority: 101,
    type: 'regular',
    basePriceCents: 1_000,
    regions: [{ code: 'mock-local', status: 'available', priceCents: 0 }],
    features: FEATURES.map((f) => ({ code: f.code, status: 'available', priceCents: f.priceCents })),
  },
];

export const PLAN_GROUPS: { name: string; description: string; planCodes: string[] }[] = [
  {
    name: 'Standard',
    description: 'Every public plan.',
    planCodes: PLANS.filter((p) => p.provider === 'gcp').map((p) => p.code),
  },
  {
    name: 'Enterprise',
    description: 'Large tiers for companies on an enterprise agreement.',
    planCodes: PLANS.filter((p) => p.provider === 'gcp' && (p.code.includes('mau_1_000_000') || p.code.includes('mau_2_500_000') || p.code.includes('mau_5_000_000'))).map((p) => p.code),
  },
];
