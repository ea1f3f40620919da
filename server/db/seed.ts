import { randomInt } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { SPECIAL_CHARACTERS } from '../../src/domain/validation';
import { hashPassword } from '../services/passwords';
import { invalidatePlanCache } from '../services/plans';
import { FEATURES, PLAN_GROUPS, PLANS, PROVIDERS, REGIONS, SIZES } from './catalogue';
import type { Db } from './client';
import { features, planFeatures, planGroupPlans, planGroups, planRegions, plans, providers, regions, sizes, users } from './schema';

/**
 * Inserts the demo catalogue where its codes are missing. Safe to run on every start: a second
 * run inserts nothing and never overwrites what admins changed.
 */
export async function seedCatalogue(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(providers).values(PROVIDERS).onConflictDoNothing();
    const providerRows = await tx.select({ id: providers.id, code: providers.code }).from(providers);
    const providerId = (code: string) => {
      const row = providerRows.find((p) => p.code === code);
      if (!row) throw new Error(`seed: unknown provider ${code}`);
      return row.id;
    };

    await tx
      .insert(regions)
      .values(REGIONS.map(({ provider, ...r }) => ({ ...r, providerId: providerId(provider) })))
      .onConflictDoNothing();
    await tx
      .insert(sizes)
      .values(SIZES.map(({ provider, ...s }) => ({ ...s, providerId: providerId(provider) })))
      .onConflictDoNothing();
    await tx.insert(features).values(FEATURES).onConflictDoNothing();

    const inserted = await tx
      .insert(plans)
      .values(PLANS.map(({ provider, regions: _r, features: _f, ...p }) => ({ ...p, providerId: providerId(provider) })))
      .onConflictDoNothing()
      .returning({ id: plans.id, code: plans.code });

    // Only plans created now get their lists; existing plans keep whatever admins set.
    const regionRows = await tx.select({ id: regions.id, code: regions.code, providerId: regions.providerId }).from(regions);
    const featureRows = await tx.select({ id: features.id, code: features.code }).from(features);
    for (const plan of inserted) {
      const seed = PLANS.find((p) => p.code === plan.code);
      if (!seed) continue;
      const pid = providerId(seed.provider);
      const regionValues = seed.regions.flatMap((r) => {
        const row = regionRows.find((x) => x.code === r.code && x.providerId === pid);
        return row ? [{ planId: plan.id, regionId: row.id, status: r.status, priceCents: r.priceCents }] : [];
      });
      const featureValues = seed.features.flatMap((f) => {
        const row = featureRows.find((x) => x.code === f.code);
        return row ? [{ planId: plan.id, featureId: row.id, status: f.status, priceCents: f.priceCents }] : [];
      });
      if (regionValues.length) await tx.insert(planRegions).values(regionValues).onConflictDoNothing();
      if (featureValues.length) await tx.insert(planFeatures).values(featureValues).onConflictDoNothing();
    }

    const groups = await tx
      .insert(planGroups)
      .values(PLAN_GROUPS.map(({ name, description }) => ({ name, description })))
      .onConflictDoNothing()
      .returning({ id: planGroups.id, name: planGroups.name });
    for (const group of groups) {
      const seed = PLAN_GROUPS.find((g) => g.name === group.name);
      if (!seed?.planCodes.length) continue;
      const members = await tx.select({ id: plans.id }).from(plans).where(inArray(plans.code, seed.planCodes));
      if (members.length) {
        await tx
          .insert(planGroupPlans)
          .values(members.map((m) => ({ planGroupId: group.id, planId: m.id })))
          .onConflictDoNothing();
      }
    }
  });
  // What this process had cached of the catalogue may predate the seed.
  invalidatePlanCache(db);
}

/** A password that satisfies the product's own password rules (SPEC §5). */
export function generatePassword(length = 20): string {
  const pools = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', SPECIAL_CHARACTERS];
  const all = pools.join('');
  const chars = pools.map((pool) => pool[randomInt(pool.length)] ?? '');
  while (chars.length < length) chars.push(all[randomInt(all.length)] ?? '');
  for (let i = chars.length - 1; i > 0; i -= 1) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j] ?? '', chars[i] ?? ''];
  }
  return chars.join('');
}

export interface CreatedAdmin {
  email: string;
  /** Present only when the password was generated here and must be shown once. */
  generatedPassword?: string;
}

export type SeedAdminResult = CreatedAdmin | { skipped: 'emailTaken'; email: string } | null;

/**
 * Creates the first platform admin when there is none. It only ever creates: when an account
 * already holds the address (anybody may have signed up with it, unverified), nothing is promoted
 * and the caller warns instead. A generated password must be changed at the first sign-in.
 */
export async function seedFirstAdmin(db: Db, options: { email?: string; password?: string }): Promise<SeedAdminResult> {
  const existing = await db.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).limit(1);
  if (existing.length) return null;
  const email = (options.email ?? 'admin@beacon.localhost').toLowerCase();
  const password = options.password ?? generatePassword();
  const passwordHash = await hashPassword(password);
  const created = await db
    .insert(users)
    .values({ email, firstName: 'Platform', lastName: 'Admin', passwordHash, isAdmin: true, emailVerifiedAt: new Date(), mustChangePassword: !options.password })
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (!created.length) return { skipped: 'emailTaken', email };
  return options.password ? { email } : { email, generatedPassword: password };
}
