import { createHash, randomInt } from 'node:crypto';
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { TFunction } from 'i18next';
import type { CompanyRole, CreateCompanyBody, InvitationBody, InvitedSignUpBody, UpdateCompanyBody } from '../../src/domain/companies/schemas';
import type { CompanyDto, TeamDto } from '../../src/domain/companies/answers';
import { may, type AccessLevel } from '../../src/domain/companies/access';
import type { ErrorCode } from '../../src/domain/errors';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { VersionedCache, type ChangeFeed } from '../db/changes';
import { companies, companyDeletionCodes, companyMembers, invitations, projects, users } from '../db/schema';
import { AppError } from '../errors';
import type { Mailer } from '../mail/mailer';
import { renderMail } from '../mail/templates';
import { checkImage, deleteFile, fileUrl, storeImage, type Upload } from './files';
import { hashPassword } from '../crypto/passwords';
import { UUID } from './plans';
import { countRecent, recordEvent } from './limitEvents';
import { hashToken, newOpaqueToken } from './tokens';
import { SESSION_CACHE_MS } from './sessions';
import { takeOverUnverified } from './accountClaim';
import { actorById, recordAudit } from './audit';
import { endCompanyAccess } from '../../analytics/server/services/tenants';

const INVITATION_TTL_DAYS = 7;
const DELETION_CODE_TTL_MINUTES = 10;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Wrong deletion codes per company and per user in an hour; then every code waits the hour out. */
const DELETION_FAILURES_PER_HOUR = 5;
const DELETION_CODES_PER_HOUR = 5;

/** Locks the company row for the transaction; a company deleted meanwhile is answered as foreign. */
async function lockCompany(tx: Db, companyId: string): Promise<{ name: string }> {
  const [row] = await tx.select({ name: companies.name }).from(companies).where(eq(companies.id, companyId)).for('update');
  if (!row) throw new AppError('NOT_A_MEMBER');
  return row;
}

export interface Membership {
  companyId: string;
  role: CompanyRole;
}

/**
 * The membership check services are given (built once in `composeApp`): the user must belong to the
 * company, with the admin role where asked; otherwise the call is refused like `requireMember`.
 */
export interface Members {
  require(companyId: string, userId: string, level?: AccessLevel): Promise<Membership>;
  /** The company's billing country (its orders' tax), for a member; null when unset. */
  billingCountry(companyId: string, userId: string): Promise<string | null>;
  /** The company's billing country and tax id, for a member: what decides its orders' tax (taxTreatment). */
  buyerTax(companyId: string, userId: string): Promise<{ country: string | null; taxId: string | null }>;
}

/**
 * With a change feed, memberships are kept between requests like session rows (sessions.ts): every
 * company-scoped read checks one, and a write to company_members through this process drops them
 * all at once; SESSION_CACHE_MS bounds what another process's change can go unseen.
 */
export function createMembers({ db, changes }: { db: Db; changes?: ChangeFeed }): Members {
  const kept = changes ? new VersionedCache<CompanyRole>(changes, SESSION_CACHE_MS) : null;
  return {
    async require(companyId, userId, role) {
      if (!kept) return requireMember(db, companyId, userId, role);
      if (!UUID.test(companyId)) throw new AppError('NOT_A_MEMBER');
      return membership(companyId, await kept.load(`${companyId}:${userId}`, () => roleOf(db, companyId, userId)), role);
    },
    billingCountry: (companyId, userId) => companyBillingCountry(db, companyId, userId),
    buyerTax: (companyId, userId) => companyBuyerTax(db, companyId, userId),
  };
}

/**
 * Authorization for every company-scoped call: the session user must belong to the company, with
 * the admin role where asked. A malformed or unknown id is answered like a foreign one (403).
 */
export async function requireMember(db: Db, companyId: string, userId: string, role?: AccessLevel): Promise<Membership> {
  if (!UUID.test(companyId)) throw new AppError('NOT_A_MEMBER');
  return membership(companyId, await roleOf(db, companyId, userId), role);
}

async function roleOf(db: Db, companyId: string, userId: string): Promise<CompanyRole | null> {
  const [row] = await db
    .select({ role: companyMembers.role })
    .from(companyMembers)
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)));
  return row?.role ?? null;
}

/** The refusal of each level, saying who may. */
const LEVEL_REFUSAL = { member: 'NOT_A_MEMBER', servers: 'SERVERS_ROLE_REQUIRED', billing: 'BILLING_ROLE_REQUIRED', admin: 'ROLE_REQUIRED' } as const satisfies Record<AccessLevel, ErrorCode>;

function membership(companyId: string, held: CompanyRole | null, level: AccessLevel = 'member'): Membership {
  if (!held) throw new AppError('NOT_A_MEMBER');
  if (!may(held, level)) throw new AppError(LEVEL_REFUSAL[level]);
  return { companyId, role: held };
}

/** The billing country of a company the user belongs to (its orders' tax); null when unset. */
export async function companyBillingCountry(db: Db, companyId: string, userId: string): Promise<string | null> {
  await requireMember(db, companyId, userId);
  const [row] = await db.select({ billingCountry: companies.billingCountry }).from(companies).where(eq(companies.id, companyId));
  return row?.billingCountry ?? null;
}

/** The billing country and tax id of a company the user belongs to: its orders' tax (taxTreatment). */
export async function companyBuyerTax(db: Db, companyId: string, userId: string): Promise<{ country: string | null; taxId: string | null }> {
  await requireMember(db, companyId, userId);
  const [row] = await db.select({ country: companies.billingCountry, taxId: companies.taxId }).from(companies).where(eq(companies.id, companyId));
  return { country: row?.country ?? null, taxId: row?.taxId ?? null };
}

export async function listUserCompanies(db: Db, userId: string): Promise<{ _id: string; name: string; role: CompanyRole }[]> {
  const rows = await db
    .select({ id: companies.id, name: companies.name, role: companyMembers.role })
    .from(companyMembers)
    .innerJoin(companies, eq(companies.id, companyMembers.companyId))
    .where(eq(companyMembers.userId, userId))
    .orderBy(asc(companies.name));
  return rows.map((r) => ({ _id: r.id, name: r.name, role: r.role }));
}

/**
 * Before an account is deleted: companies it is the only member of go with it; a company whose
 * last admin it is, with others left, would be stranded, so the deletion is refused.
 */
export async function releaseMemberships(tx: Db, userId: string): Promise<void> {
  const rows = await tx
    .select({
      companyId: companyMembers.companyId,
      role: companyMembers.role,
      members: sql<number>`(select count(*) from company_members m where m.company_id = ${companyMembers.companyId})::int`,
      admins: sql<number>`(select count(*) from company_members m where m.company_id = ${companyMembers.companyId} and m.role = 'admin')::int`,
      logoFileId: companies.logoFileId,
    })
    .from(companyMembers)
    .innerJoin(companies, eq(companies.id, companyMembers.companyId))
    .where(eq(companyMembers.userId, userId));
  if (rows.some((r) => r.members > 1 && r.role === 'admin' && r.admins === 1)) throw new AppError('LAST_ADMIN_ACCOUNT');
  for (const r of rows.filter((r) => r.members === 1)) {
    await tx.delete(companies).where(eq(companies.id, r.companyId));
    await deleteFile(tx, r.logoFileId);
  }
}

/** Who is asking: the signed-in user (only the id is needed to check membership). */
type Actor = { id: string };

const hashCode = (companyId: string, code: string) => createHash('sha256').update(`${companyId}:${code}`).digest('hex');

export function createCompanyService({ db, config, mailer, t }: { db: Db; config: Config; mailer: Mailer; t: TFunction }) {
  async function loadCompany(companyId: string, userId: string, conn: Db = db): Promise<CompanyDto> {
    const { role } = await requireMember(conn, companyId, userId);
    const [company] = await conn.select().from(companies).where(eq(companies.id, companyId));
    if (!company) throw new AppError('NOT_A_MEMBER');
    const projectRows = await conn.select({ id: projects.id, name: projects.name }).from(projects).where(eq(projects.companyId, companyId)).orderBy(asc(projects.createdAt));
    return {
      _id: company.id,
      name: company.name,
      size: company.size,
      logo: fileUrl(company.logoFileId),
      billingCountry: company.billingCountry,
      taxId: company.taxId,
      billingAddress: company.billingAddress,
      billingPostalCode: company.billingPostalCode,
      billingCity: company.billingCity,
      createdAt: company.createdAt.toISOString(),
      role,
      projects: projectRows.map((p) => ({ _id: p.id, name: p.name })),
    };
  }

  async function addMember(tx: Db, companyId: string, userId: string, role: CompanyRole) {
    await tx.insert(companyMembers).values({ companyId, userId, role }).onConflictDoNothing();
  }

  return {
    getCompany: (actor: Actor, { companyId }: { companyId: string }): Promise<CompanyDto> => loadCompany(companyId, actor.id),

    /**
     * A company with its creator as admin and a default project, in one transaction: its own, or
     * the caller's `tx` (an idempotent request stores its answer in the same one).
     */
    async createCompany(actor: Actor, { body, designation }: { body: CreateCompanyBody; designation?: string }, tx?: Db): Promise<CompanyDto> {
      const userId = actor.id;
      const work = async (tx: Db) => {
        const [company] = await tx.insert(companies).values({ name: body.name, size: body.size ?? null }).returning({ id: companies.id });
        if (!company) throw new Error('company insert returned nothing');
        await addMember(tx, company.id, userId, 'admin');
        await tx.insert(projects).values({ companyId: company.id, name: 'Default project' });
        if (designation) await tx.update(users).set({ designation }).where(eq(users.id, userId));
        const actor = await actorById(tx, userId);
        await recordAudit(tx, { actor, action: 'company.create', targetType: 'company', targetId: company.id, companyId: company.id, after: { name: body.name, size: body.size ?? null } });
        return loadCompany(company.id, userId, tx);
      };
      return tx ? work(tx) : db.transaction(work);
    },

    /** Whether the actor may update the company (its admins): asked before a form's body is read, so a refused upload is never read. */
    async checkCompanyUpdate(actor: Actor, { companyId }: { companyId: string }): Promise<void> {
      await requireMember(db, companyId, actor.id, 'admin');
    },

    /** Name, size, billing country, tax id and billing address; a new logo (checked before anything is written) or none. */
    async updateCompany(actor: Actor, { companyId, body, logo }: { companyId: string; body: UpdateCompanyBody; logo: Upload | null }): Promise<CompanyDto> {
      const userId = actor.id;
      await requireMember(db, companyId, userId, 'admin');
      const type = logo ? checkImage(logo, 'uploadLogo') : null;
      await db.transaction(async (tx) => {
        const [current] = await tx
          .select({ logoFileId: companies.logoFileId, name: companies.name, size: companies.size, billingCountry: companies.billingCountry, taxId: companies.taxId, billingAddress: companies.billingAddress, billingPostalCode: companies.billingPostalCode, billingCity: companies.billingCity })
          .from(companies)
          .where(eq(companies.id, companyId))
          .for('update');
        let logoFileId = current?.logoFileId ?? null;
        // The billing address: each part sent is set (null clears it); a part left out stays.
        const address = {
          ...(body.billingAddress !== undefined ? { billingAddress: body.billingAddress } : {}),
          ...(body.billingPostalCode !== undefined ? { billingPostalCode: body.billingPostalCode } : {}),
          ...(body.billingCity !== undefined ? { billingCity: body.billingCity } : {}),
        };
        const addressBefore = { billingAddress: current?.billingAddress ?? null, billingPostalCode: current?.billingPostalCode ?? null, billingCity: current?.billingCity ?? null };
        if (logo && type) logoFileId = await storeImage(tx, logo.data, type);
        else if (body.removeLogo) logoFileId = null;
        await tx
          .update(companies)
          .set({
            name: body.name,
            size: body.size ?? null,
            ...(body.billingCountry !== undefined ? { billingCountry: body.billingCountry } : {}),
            ...(body.taxId !== undefined ? { taxId: body.taxId } : {}),
            ...address,
            logoFileId,
            updatedAt: sql`now()`,
          })
          .where(eq(companies.id, companyId));
        if (current?.logoFileId && logoFileId !== current.logoFileId) await deleteFile(tx, current.logoFileId);
        const after = { name: body.name, size: body.size ?? null, billingCountry: body.billingCountry !== undefined ? body.billingCountry : (current?.billingCountry ?? null), taxId: body.taxId !== undefined ? body.taxId : (current?.taxId ?? null), ...addressBefore, ...address, logoFileId };
        const before = { name: current?.name ?? null, size: current?.size ?? null, billingCountry: current?.billingCountry ?? null, taxId: current?.taxId ?? null, ...addressBefore, logoFileId: current?.logoFileId ?? null };
        await recordAudit(tx, { actor: await actorById(tx, userId), action: 'company.update', targetType: 'company', targetId: companyId, companyId, before, after });
      });
      return loadCompany(companyId, userId);
    },

    /**
     * Without a code: mails a fresh 5-digit code. With one: checks it and deletes the company.
     * Wrong codes are counted per company and per user over the last hour, apart from the code
     * itself, so asking for a new code never buys more guesses; while over the limit every code,
     * the right one too, is refused until the hour has passed.
     */
    async deleteCompany(user: Actor & { email: string; firstName: string }, { companyId, code }: { companyId: string; code?: string }): Promise<'codeSent' | 'deleted'> {
      await requireMember(db, companyId, user.id, 'admin');
      if (!code) {
        const fresh = String(randomInt(0, 100_000)).padStart(5, '0');
        const expiresAt = new Date(Date.now() + DELETION_CODE_TTL_MINUTES * 60_000);
        await db.transaction(async (tx) => {
          await lockCompany(tx, companyId);
          if ((await countRecent(tx, 'deletionCode:company', companyId, HOUR_MS)) >= DELETION_CODES_PER_HOUR) throw new AppError('TOO_MANY_ATTEMPTS');
          await recordEvent(tx, 'deletionCode:company', companyId, HOUR_MS);
          await tx
            .insert(companyDeletionCodes)
            .values({ companyId, codeHash: hashCode(companyId, fresh), expiresAt })
            .onConflictDoUpdate({ target: companyDeletionCodes.companyId, set: { codeHash: hashCode(companyId, fresh), expiresAt } });
        });
        const mail = renderMail(t, 'deleteCompany', { name: user.firstName, link: fresh, expiry: { minutes: DELETION_CODE_TTL_MINUTES } });
        await mailer.send(user.email, mail, `code ${fresh}`);
        return 'codeSent';
      }
      const outcome = await db.transaction(async (tx) => {
        // Company, then user: the same order everywhere, so two of these never wait on each other.
        await lockCompany(tx, companyId);
        await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
        const failures = Math.max(await countRecent(tx, 'deletionFailure:company', companyId, HOUR_MS), await countRecent(tx, 'deletionFailure:user', user.id, HOUR_MS));
        if (failures >= DELETION_FAILURES_PER_HOUR) throw new AppError('TOO_MANY_ATTEMPTS');
        const [row] = await tx
          .select()
          .from(companyDeletionCodes)
          .where(and(eq(companyDeletionCodes.companyId, companyId), gt(companyDeletionCodes.expiresAt, sql`now()`)));
        if (!row || row.codeHash !== hashCode(companyId, code)) {
          // The failure is recorded in this transaction, which then commits (nothing else changed).
          await recordEvent(tx, 'deletionFailure:company', companyId, HOUR_MS);
          await recordEvent(tx, 'deletionFailure:user', user.id, HOUR_MS);
          return 'wrong' as const;
        }
        const [gone] = await tx.delete(companies).where(eq(companies.id, companyId)).returning({ logoFileId: companies.logoFileId, name: companies.name });
        await deleteFile(tx, gone?.logoFileId ?? null);
        await recordAudit(tx, { actor: user, action: 'company.delete', targetType: 'company', targetId: companyId, companyId, before: { name: gone?.name ?? null } });
        return 'deleted' as const;
      });
      if (outcome === 'wrong') throw new AppError('CODE_INVALID', { fieldErrors: { verificationCode: ['errors.invalidVerificationCode'] } });
      return outcome;
    },

    async listTeam(actor: Actor, { companyId }: { companyId: string }): Promise<TeamDto> {
      await requireMember(db, companyId, actor.id);
      const [members, invites] = await Promise.all([
        db
          .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email, role: companyMembers.role })
          .from(companyMembers)
          .innerJoin(users, eq(users.id, companyMembers.userId))
          .where(eq(companyMembers.companyId, companyId))
          .orderBy(asc(users.firstName)),
        db.select().from(invitations).where(and(eq(invitations.companyId, companyId), isNull(invitations.acceptedAt))).orderBy(asc(invitations.createdAt)),
      ]);
      const now = Date.now();
      return {
        users: members.map((m) => ({ _id: m.id, firstName: m.firstName, lastName: m.lastName, email: m.email, role: m.role, status: 'active' as const })),
        invitations: invites.map((i) => ({ _id: i.id, email: i.email, role: i.role, status: i.expiresAt.getTime() > now ? ('pending' as const) : ('expired' as const), createdAt: i.createdAt.toISOString() })),
      };
    },

    /**
     * Only members who proved their mailbox invite (an unverified account may be anybody's), and
     * a company sends at most INVITATIONS_PER_COMPANY_PER_DAY: counted as sent, so replacing or
     * cancelling an invitation does not give the count back.
     */
    async invite(inviter: Actor & { firstName: string; emailVerifiedAt: Date | null }, { companyId, body }: { companyId: string; body: InvitationBody }): Promise<void> {
      await requireMember(db, companyId, inviter.id, 'admin');
      if (!inviter.emailVerifiedAt) throw new AppError('EMAIL_NOT_VERIFIED');
      const [existing] = await db
        .select({ id: users.id })
        .from(companyMembers)
        .innerJoin(users, eq(users.id, companyMembers.userId))
        .where(and(eq(companyMembers.companyId, companyId), eq(users.email, body.email)));
      if (existing) throw new AppError('ALREADY_MEMBER');
      const { raw, hash } = newOpaqueToken();
      const company = await db.transaction(async (tx) => {
        // The company row lock makes count-then-insert safe against parallel invitations.
        const locked = await lockCompany(tx, companyId);
        if ((await countRecent(tx, 'invitation:company', companyId, DAY_MS)) >= config.INVITATIONS_PER_COMPANY_PER_DAY) throw new AppError('INVITATION_LIMIT');
        await recordEvent(tx, 'invitation:company', companyId, DAY_MS);
        // A new invitation to the same address replaces the pending one.
        await tx.delete(invitations).where(and(eq(invitations.companyId, companyId), eq(invitations.email, body.email), isNull(invitations.acceptedAt)));
        const [invitation] = await tx
          .insert(invitations)
          .values({ companyId, email: body.email, role: body.role, tokenHash: hash, invitedBy: inviter.id, expiresAt: new Date(Date.now() + INVITATION_TTL_DAYS * 86_400_000) })
          .returning({ id: invitations.id });
        const actor = await actorById(tx, inviter.id);
        await recordAudit(tx, { actor, action: 'invitation.create', targetType: 'invitation', targetId: invitation?.id ?? '', companyId, after: { email: body.email, role: body.role } });
        return locked;
      });
      const link = `${config.publicUrl}/#/account/invited?token=${raw}`;
      const mail = renderMail(t, 'invite', { name: body.email, link, expiry: { days: INVITATION_TTL_DAYS }, inviter: inviter.firstName, company: company.name });
      void mailer.send(body.email, mail, link);
    },

    async removeMember(actor: Actor, { companyId, memberId }: { companyId: string; memberId: string }): Promise<void> {
      const userId = actor.id;
      await requireMember(db, companyId, userId, 'admin');
      if (!UUID.test(memberId)) throw new AppError('NOT_FOUND');
      await db.transaction(async (tx) => {
        const admins = await tx
          .select({ userId: companyMembers.userId })
          .from(companyMembers)
          .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.role, 'admin')))
          .for('update');
        if (admins.length === 1 && admins[0]?.userId === memberId) throw new AppError('LAST_ADMIN');
        const removed = await tx
          .delete(companyMembers)
          .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, memberId)))
          .returning({ userId: companyMembers.userId, role: companyMembers.role });
        if (!removed[0]) throw new AppError('NOT_FOUND');
        const actor = await actorById(tx, userId);
        await recordAudit(tx, { actor, action: 'member.remove', targetType: 'member', targetId: memberId, companyId, before: { userId: memberId, role: removed[0].role } });
        // Leaving the company ends the dashboards of its servers with it: member rows, API keys and tokens.
        await endCompanyAccess(tx, companyId, memberId, actor);
      });
    },

    async cancelInvitation(actor: Actor, { companyId, invitationId }: { companyId: string; invitationId: string }): Promise<void> {
      const userId = actor.id;
      await requireMember(db, companyId, userId, 'admin');
      if (!UUID.test(invitationId)) throw new AppError('NOT_FOUND');
      await db.transaction(async (tx) => {
        const [removed] = await tx
          .delete(invitations)
          .where(and(eq(invitations.id, invitationId), eq(invitations.companyId, companyId), isNull(invitations.acceptedAt)))
          .returning({ id: invitations.id, email: invitations.email, role: invitations.role });
        if (!removed) throw new AppError('NOT_FOUND');
        await recordAudit(tx, { actor: await actorById(tx, userId), action: 'invitation.revoke', targetType: 'invitation', targetId: invitationId, companyId, before: { email: removed.email, role: removed.role } });
      });
    },

    /**
     * What the invitation page shows. `existingUser` is true only for a verified account: one
     * nobody verified is taken over by whoever accepts (see acceptInvitation), like a new one.
     */
    async checkInvitation({ token }: { token: string }): Promise<{ email: string; companyName: string; role: CompanyRole; existingUser: boolean }> {
      const [row] = await db
        .select({ email: invitations.email, role: invitations.role, companyName: companies.name })
        .from(invitations)
        .innerJoin(companies, eq(companies.id, invitations.companyId))
        .where(and(eq(invitations.tokenHash, hashToken(token)), isNull(invitations.acceptedAt), gt(invitations.expiresAt, sql`now()`)));
      if (!row) throw new AppError('INVITATION_INVALID');
      const [user] = await db.select({ verified: users.emailVerifiedAt }).from(users).where(eq(users.email, row.email));
      return { ...row, existingUser: Boolean(user?.verified) };
    },

    /**
     * Accepts an invitation. The mailed token proves the mailbox, not an account, so:
     * - no account yet: one is made, verified, with the form's details;
     * - an account nobody verified: whoever accepts takes it over (their password replaces the
     *   first registrant's, whose sessions, second factor and pending links all go), then joins;
     * - a verified account joins only when the browser accepting is signed in as it.
     * The invitation is used once, in the same transaction. `actor` is the browser's signed-in user, if any.
     */
    async acceptInvitation(actor: Actor | null, input: { token: string; signUp: Omit<InvitedSignUpBody, 'token'> | null }): Promise<{ userId: string; created: boolean }> {
      const signedInAs = actor?.id ?? null;
      const passwordHash = input.signUp ? await hashPassword(input.signUp.password) : null;
      return db.transaction(async (tx) => {
        const [invite] = await tx
          .update(invitations)
          .set({ acceptedAt: sql`now()` })
          .where(and(eq(invitations.tokenHash, hashToken(input.token)), isNull(invitations.acceptedAt), gt(invitations.expiresAt, sql`now()`)))
          .returning();
        if (!invite) throw new AppError('INVITATION_INVALID');
        const [existing] = await tx.select({ id: users.id, verified: users.emailVerifiedAt }).from(users).where(eq(users.email, invite.email)).for('update');
        let userId: string;
        if (existing?.verified) {
          if (existing.id !== signedInAs) throw new AppError('INVITATION_SIGN_IN_REQUIRED');
          userId = existing.id;
        } else {
          const signUp = input.signUp;
          if (!signUp || !passwordHash) throw AppError.validation({ password: ['validation.required'] });
          const details = { firstName: signUp.firstName, lastName: signUp.lastName, designation: signUp.designation };
          if (existing) {
            userId = (await takeOverUnverified(tx, existing.id, { passwordHash, firstName: details.firstName, lastName: details.lastName, via: 'local' })).id;
            await tx.update(users).set({ designation: details.designation }).where(eq(users.id, userId));
          } else {
            const [created] = await tx
              .insert(users)
              .values({ email: invite.email, ...details, passwordHash, emailVerifiedAt: new Date() })
              .returning({ id: users.id });
            if (!created) throw new Error('invited user insert returned nothing');
            userId = created.id;
          }
        }
        await addMember(tx, invite.companyId, userId, invite.role);
        const actor = await actorById(tx, userId);
        if (!existing) await recordAudit(tx, { actor, action: 'user.signUp', targetType: 'user', targetId: userId, after: { email: invite.email, via: 'invitation' } });
        await recordAudit(tx, { actor, action: 'invitation.accept', targetType: 'invitation', targetId: invite.id, companyId: invite.companyId, after: { userId, role: invite.role } });
        return { userId, created: !existing };
      });
    },
  };
}

export type CompanyService = ReturnType<typeof createCompanyService>;
