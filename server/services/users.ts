import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { PendingConfiguration } from '../../src/domain/orders/schemas';
import type { ProfileUpdateBody } from '../../src/domain/users/schemas';
import type { Db } from '../db/client';
import { companies, companyMembers, projects, sessions, users } from '../db/schema';
import { recordAudit } from './audit';
import { AppError } from '../errors';
import { checkImage, deleteFile, fileUrl, storeImage, type Upload } from './files';
import type { SessionUser } from './sessions';

/** Only the account itself may change or export it; another id is refused like a foreign one. */
function requireSelf(user: SessionUser, id: string) {
  if (user.id !== id) throw new AppError('FORBIDDEN');
}

export type UserService = ReturnType<typeof createUserService>;

/** A user's own account: profile and data export (SPEC §3, §7 Other). The actor is the signed-in user. */
export function createUserService(deps: { db: Db }) {
  const { db } = deps;
  return {
    /** Whether the actor may update this profile: asked before a form's body is read, so a refused upload is never read. */
    checkProfileUpdate: (actor: SessionUser, input: { id: string }): void => requireSelf(actor, input.id),
    /** Profile update: name and designation, and a new picture or none. */
    updateProfile: (actor: SessionUser, input: { id: string; body: ProfileUpdateBody; picture: Upload | null }) => updateProfile(db, actor, input.id, input.body, input.picture),
    /** Everything kept about the user, for download. */
    exportData: (actor: SessionUser, input: { id: string }) => exportUserData(db, actor, input.id),
    /** The pre-login order kept with the account at sign-up (only ever the actor's own). */
    async pendingOrder(actor: SessionUser): Promise<PendingConfiguration | null> {
      const [row] = await db.select({ order: users.pendingOrder }).from(users).where(eq(users.id, actor.id));
      return row?.order ?? null;
    },
    /** The `continue` step has submitted it (or the user started over): forget it, once, audited. */
    async clearPendingOrder(actor: SessionUser): Promise<void> {
      await db.transaction(async (tx) => {
        const [row] = await tx.update(users).set({ pendingOrder: null }).where(and(eq(users.id, actor.id), isNotNull(users.pendingOrder))).returning({ id: users.id });
        if (row) await recordAudit(tx, { actor, action: 'user.pendingOrderCleared', targetType: 'user', targetId: actor.id });
      });
    },
  };
}

async function updateProfile(db: Db, user: SessionUser, id: string, body: ProfileUpdateBody, picture: Upload | null): Promise<void> {
  requireSelf(user, id);
  // Checked before anything is written, so a refused picture changes nothing.
  const type = picture ? checkImage(picture, 'uploadPicture') : null;
  await db.transaction(async (tx) => {
    let pictureFileId = user.pictureFileId;
    if (picture && type) pictureFileId = await storeImage(tx, picture.data, type);
    else if (body.removePicture) pictureFileId = null;
    await tx.update(users).set({ firstName: body.firstName, designation: body.designation, pictureFileId, updatedAt: new Date() }).where(eq(users.id, user.id));
    if (pictureFileId !== user.pictureFileId) await deleteFile(tx, user.pictureFileId);
    const before = { firstName: user.firstName, designation: user.designation, pictureFileId: user.pictureFileId };
    await recordAudit(tx, { actor: user, action: 'user.update', targetType: 'user', targetId: user.id, before, after: { firstName: body.firstName, designation: body.designation, pictureFileId } });
  });
}

/**
 * Everything the product keeps about the user, for download: the profile, memberships and
 * sessions. Secrets (password hash, two-factor secret, token hashes) are never part of it.
 */
async function exportUserData(db: Db, user: SessionUser, id: string) {
  requireSelf(user, id);
  const [memberships, projectRows, sessionRows] = await Promise.all([
    db
      .select({ id: companies.id, name: companies.name, size: companies.size, billingCountry: companies.billingCountry, role: companyMembers.role, joinedAt: companyMembers.createdAt })
      .from(companyMembers)
      .innerJoin(companies, eq(companies.id, companyMembers.companyId))
      .where(eq(companyMembers.userId, user.id))
      .orderBy(asc(companies.name)),
    db
      .select({ id: projects.id, name: projects.name, companyId: projects.companyId })
      .from(projects)
      .innerJoin(companyMembers, eq(companyMembers.companyId, projects.companyId))
      .where(eq(companyMembers.userId, user.id)),
    db
      .select({ createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt, userAgent: sessions.userAgent, ip: sessions.ip })
      .from(sessions)
      .where(eq(sessions.userId, user.id))
      .orderBy(asc(sessions.createdAt)),
  ]);
  return {
    exportedAt: new Date().toISOString(),
    user: {
      _id: user.id,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      designation: user.designation,
      picture: fileUrl(user.pictureFileId),
      via: user.via,
      emailVerifiedAt: user.emailVerifiedAt?.toISOString() ?? null,
      mfaEnabled: user.mfaEnabled,
      createdAt: user.createdAt.toISOString(),
      updatedAt: user.updatedAt.toISOString(),
    },
    companies: memberships.map((c) => ({
      _id: c.id,
      name: c.name,
      size: c.size,
      billingCountry: c.billingCountry,
      role: c.role,
      joinedAt: c.joinedAt.toISOString(),
      projects: projectRows.filter((p) => p.companyId === c.id).map((p) => ({ _id: p.id, name: p.name })),
    })),
    sessions: sessionRows.map((s) => ({ ...s, createdAt: s.createdAt.toISOString(), lastSeenAt: s.lastSeenAt.toISOString(), expiresAt: s.expiresAt.toISOString() })),
  };
}
