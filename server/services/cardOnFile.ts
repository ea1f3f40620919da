import { eq } from 'drizzle-orm';
import { cardOnFile, type CardSummary } from '../../src/domain/payments/schemas';
import type { Db } from '../db/client';
import { companies, subscriptions } from '../db/schema';
import { recordAudit, type AuditActor } from './audit';

/** The company's card on file: the card its customer gave last, whatever servers came and went since. */
export async function companyCard(db: Db, companyId: string): Promise<CardSummary | null> {
  const rows = await db.select({ card: subscriptions.card }).from(subscriptions).where(eq(subscriptions.companyId, companyId));
  return cardOnFile(rows.map((r) => r.card));
}

/**
 * Puts a card on file for every subscription of the company (renewals and payments use it). Only a
 * card the customer gave is a change, audited with the card it replaces (`replaced`, read before the
 * payment's notification stamped the paid subscription); paying with the card on file passes null
 * and writes it back unchanged.
 */
export async function putCardOnFile(db: Db, actor: AuditActor, companyId: string, card: CardSummary, replaced: { before: CardSummary | null } | null): Promise<void> {
  await db.transaction(async (tx) => {
    // One company's card changes one at a time: concurrent payments each updating all its subscriptions
    // in their own row order would deadlock on PostgreSQL. NO KEY UPDATE leaves the key-share locks that
    // inserts referencing the company take (a payment's transaction row) free to go on.
    await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('no key update');
    await tx.update(subscriptions).set({ card, updatedAt: new Date() }).where(eq(subscriptions.companyId, companyId));
    const previous = replaced?.before;
    if (replaced) await recordAudit(tx, { actor, action: 'company.cardUpdate', targetType: 'company', targetId: companyId, companyId, before: previous ? { brand: previous.brand, last4: previous.last4 } : null, after: { brand: card.brand, last4: card.last4 } });
  });
}
