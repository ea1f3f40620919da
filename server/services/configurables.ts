import { asc, eq } from 'drizzle-orm';
import type { ConfigurablesDto } from '../../src/domain/plans/schemas';
import { centsToDecimal } from '../../src/domain/money';
import type { Db } from '../db/client';
import { features, providers, regions, sizes } from '../db/schema';
import { AppError } from '../errors';
import { cachedCatalogue } from './plans';

/** SPEC §3 configurables of one provider: its regions and sizes, and the feature catalogue; cached with the catalogue. */
export function getConfigurables(db: Db, providerCode: string): Promise<ConfigurablesDto> {
  return cachedCatalogue(db, `configurables:${providerCode}`, () => loadConfigurables(db, providerCode));
}

async function loadConfigurables(db: Db, providerCode: string): Promise<ConfigurablesDto> {
  const [provider] = await db.select().from(providers).where(eq(providers.code, providerCode)).limit(1);
  if (!provider || provider.status !== 'active') throw new AppError('PROVIDER_NOT_FOUND', { params: { provider: providerCode } });
  const [regionRows, sizeRows, featureRows] = await Promise.all([
    db.select().from(regions).where(eq(regions.providerId, provider.id)).orderBy(asc(regions.order)),
    db.select().from(sizes).where(eq(sizes.providerId, provider.id)).orderBy(asc(sizes.order)),
    db.select().from(features).orderBy(asc(features.type), asc(features.order)),
  ]);
  return {
    providers: [{ _id: provider.id, code: provider.code, name: provider.name }],
    regions: regionRows.map((r) => ({ _id: r.id, code: r.code, name: r.name, order: r.order, price: centsToDecimal(r.priceCents), isAvailable: r.status === 'active' })),
    sizes: sizeRows.filter((s) => s.status === 'active').map((s) => ({ _id: s.id, code: s.code, size: { value: s.value }, order: s.order })),
    features: featureRows.map((f) => ({
      _id: f.id,
      code: f.code,
      type: f.type,
      name: f.name,
      description: f.description,
      order: f.order,
      price: centsToDecimal(f.priceCents),
      status: f.status,
      isAvailable: f.status === 'active',
    })),
  };
}
