import { redactSecrets, type AuditTargetType } from '../../src/domain/audit';
import type { Db } from '../db/client';
import { eq } from 'drizzle-orm';
import { auditLogs, users } from '../db/schema';
import { currentRequest } from '../requestContext';

/** Who did it: a signed-in user, or null for the system (worker, scheduled jobs, webhooks). */
export interface AuditActor {
  id: string;
  email: string;
}

export interface AuditEntry {
  actor: AuditActor | null;
  /** `<target>.<verb>`, e.g. `deployment.restart`, `user.lock`, `planGroup.update`. */
  action: string;
  targetType: AuditTargetType;
  targetId: string;
  companyId?: string | null;
  /** The fields the action changed, as they were and as they are; omit for pure events. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/**
 * Writes one audit row. Call it with the transaction that makes the change, so the row exists
 * exactly when the change does; the IP comes from the request being served, if any. The table
 * refuses UPDATE and DELETE (a trigger in the migration), so nobody can edit history.
 */
export async function recordAudit(tx: Db, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLogs).values({
    actorId: entry.actor?.id ?? null,
    actorEmail: entry.actor?.email ?? null,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    companyId: entry.companyId ?? null,
    ip: currentRequest()?.ip ?? null,
    before: redactSecrets(entry.before ?? null),
    after: redactSecrets(entry.after ?? null),
  });
}

/** The actor of a change made by a user the caller knows only by id (read in the change's transaction). */
export async function actorById(tx: Db, userId: string): Promise<AuditActor> {
  const [row] = await tx.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId));
  return row ?? { id: userId, email: '' };
}
