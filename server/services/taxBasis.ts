import { and, desc, eq, or, sql } from 'drizzle-orm';
import { sameBasis, taxBasis, type TaxBasis } from '../../src/domain/billing/tax';
import type { Db } from '../db/client';
import { auditLogs, companies } from '../db/schema';

/**
 * The company's current tax basis (billing country, tax id, against the seller's tax id): what
 * every next bill, quote and charge of the company is taxed on. The caller has checked the
 * actor's right to the company.
 */
export async function companyTaxBasis(db: Db, companyId: string, sellerTaxId: string): Promise<TaxBasis> {
  const [row] = await db.select({ country: companies.billingCountry, taxId: companies.taxId }).from(companies).where(eq(companies.id, companyId));
  return taxBasis({ country: row?.country ?? null, taxId: row?.taxId ?? null, sellerTaxId });
}

const text = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/**
 * The last change of the company's tax basis, from its audit trail (`company.update` records the
 * billing country and tax id before and after): when, and from which basis to which.
 */
export async function lastTaxChange(db: Db, companyId: string, sellerTaxId: string): Promise<{ from: TaxBasis; to: TaxBasis; at: Date } | null> {
  const changed = or(
    sql`${auditLogs.before}->>'billingCountry' is distinct from ${auditLogs.after}->>'billingCountry'`,
    sql`${auditLogs.before}->>'taxId' is distinct from ${auditLogs.after}->>'taxId'`,
  );
  const rows = await db
    .select({ at: auditLogs.at, before: auditLogs.before, after: auditLogs.after })
    .from(auditLogs)
    .where(and(eq(auditLogs.companyId, companyId), eq(auditLogs.action, 'company.update'), changed))
    .orderBy(desc(auditLogs.at))
    .limit(10);
  for (const row of rows) {
    const from = taxBasis({ country: text(row.before?.billingCountry), taxId: text(row.before?.taxId), sellerTaxId });
    const to = taxBasis({ country: text(row.after?.billingCountry), taxId: text(row.after?.taxId), sellerTaxId });
    // A new tax id that changes nothing (a domestic buyer's) is no change of basis.
    if (!sameBasis(from, to)) return { from, to, at: row.at };
  }
  return null;
}
