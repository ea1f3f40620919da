import type { ConfigurablesDto, PlanDto } from '../../dataProvider/catalogue';
import { wizardOptions } from './options';

/** A small catalogue for the wizard's unit tests. */
const price = (amount: string) => ({ month: { price: { amount, currency: 'USD' as const } } });
const feature = (id: string, code: string, type: ConfigurablesDto['features'][number]['type'], order: number) => ({ _id: id, code, type, name: code, description: '', order, price: '0.00', status: 'active' as const, isAvailable: true });

export const testConf: ConfigurablesDto = {
  providers: [{ _id: 'prov', code: 'gcp', name: 'GCP' }],
  regions: [
    { _id: 'eu', code: 'europe-west1', name: 'Belgium', order: 2, price: '10.00', isAvailable: true },
    { _id: 'us', code: 'us-central1', name: 'Iowa', order: 1, price: '0.00', isAvailable: true },
  ],
  sizes: [
    { _id: 's5000', code: 'mau_5_000', size: { value: 5000 }, order: 3 },
    { _id: 's500', code: 'mau_500', size: { value: 500 }, order: 1 },
    { _id: 's1000', code: 'mau_1_000', size: { value: 1000 }, order: 2 },
  ],
  features: [
    feature('funnels', 'feature.funnels', 'feature', 1),
    feature('sso', 'capability.sso', 'capability', 1),
    feature('d1', 'domain.default', 'domain', 1),
    feature('d2', 'domain.custom', 'domain', 2),
    feature('r6', 'retention.6m', 'retention', 1),
    feature('r12', 'retention.12m', 'retention', 2),
    feature('bd', 'backup.daily', 'backup', 1),
    feature('bh', 'backup.hourly', 'backup', 2),
  ],
};

const plan = (id: string, code: string, priority: number, base: string, kind: 'free' | 'paid', eu: 'available' | 'not_available'): PlanDto => ({
  _id: id,
  name: id,
  code,
  status: 'active',
  priority,
  type: kind === 'free' ? 'free_forever' : 'regular',
  kind,
  provider: { _id: 'prov', code: 'gcp' },
  basePricing: price(base),
  regions: [
    { refId: 'us', status: 'available', pricing: price('0.00') },
    { refId: 'eu', status: eu, pricing: price('10.00') },
  ],
  features: ['funnels', 'sso', 'd1', 'd2', 'r6', 'r12', 'bd', 'bh'].map((refId) => ({
    refId,
    status: kind === 'free' && !['d1', 'r6', 'bd'].includes(refId) ? ('not_available' as const) : ('available' as const),
    pricing: price(refId === 'funnels' ? '19.00' : refId === 'r12' ? '20.00' : refId === 'bh' ? '30.00' : '0.00'),
  })),
});

export const testPlans = [
  plan('free', 'v3.mau_500_gcp.base', 1, '0.00', 'free', 'not_available'),
  plan('starter', 'v3.mau_1_000_gcp.base', 2, '49.00', 'paid', 'available'),
  plan('basic', 'v3.mau_5_000_gcp.base', 3, '99.00', 'paid', 'available'),
];

export const testOptions = () => wizardOptions(testPlans, testConf);
