import { createHash } from 'node:crypto';
import { and, asc, count, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { TFunction } from 'i18next';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { PASSKEY_LIMITS, type AuthenticationResponseBody, type PasskeyDto, type PasskeyOptionsDto, type RegisterPasskeyBody } from '../../src/domain/auth/passkeys';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { passkeyChallenges, passkeys, users } from '../db/schema';
import { AppError } from '../errors';
import type { Mailer } from '../mail/mailer';
import { renderMail } from '../mail/templates';
import { recordAudit } from './audit';
import { refuseSuspended, type SessionUser } from './sessions';

export interface PasskeyDeps {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'PRODUCT_NAME' | 'REAUTH_WINDOW_MINUTES' | 'GOOGLE_CLIENT_ID'>;
  mailer: Mailer;
  t: TFunction;
}

/** The session asking for a change, with when its holder last proved who they are (auth.ts `Actor`). */
export interface PasskeyActor {
  user: SessionUser;
  provedAt: Date;
}

type Purpose = (typeof passkeyChallenges.$inferSelect)['purpose'];
type PasskeyRow = typeof passkeys.$inferSelect;
type MailKind = 'passkeyAdded' | 'passkeyRemoved' | 'passkeyUsed';

const hashChallenge = (challenge: string) => createHash('sha256').update(challenge, 'utf8').digest('hex');

/** The challenge an answer signed, read from its clientDataJSON; null when unreadable. */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    return parsed && typeof parsed === 'object' && 'challenge' in parsed && typeof parsed.challenge === 'string' ? parsed.challenge : null;
  } catch {
    return null;
  }
}

/**
 * Passkeys only on a proved address: one added before the proof could be the first registrant's,
 * who would keep a way in after the owner claims the account.
 */
function requireVerifiedAddress(user: SessionUser): void {
  if (!user.emailVerifiedAt) throw new AppError('EMAIL_NOT_VERIFIED');
}

const toDto = (row: PasskeyRow): PasskeyDto => ({
  _id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  transports: row.transports,
});

/**
 * Passkeys (WebAuthn) through @simplewebauthn/server: registration from the profile after
 * a fresh proof of identity, sign-in with a passkey alone (user verification required) and as the
 * second factor. Challenges are kept server-side, hashed, single use and short-lived; origin and
 * RP ID come from PUBLIC_URL; the signature counter must go up. Every registration, use and
 * removal is audited and mailed to the account.
 */
export function createPasskeyService({ db, config, mailer, t }: PasskeyDeps) {
  const origin = new URL(config.publicUrl).origin;
  const rpID = new URL(config.publicUrl).hostname;
  const ttlMs = PASSKEY_LIMITS.challengeMinutes * 60_000;
  const proofWindowMs = config.REAUTH_WINDOW_MINUTES * 60_000;

  function requireFreshProof(actor: PasskeyActor): void {
    if (Date.now() - actor.provedAt.getTime() > proofWindowMs) throw new AppError('REAUTH_REQUIRED');
  }

  /** Stores a new challenge; expired ones go at the same time, so the table stays small. */
  async function keepChallenge(challenge: string, purpose: Purpose, userId: string | null): Promise<void> {
    await db.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, sql`now()`));
    await db.insert(passkeyChallenges).values({ challengeHash: hashChallenge(challenge), purpose, userId, expiresAt: new Date(Date.now() + ttlMs) });
  }

  /** The challenge an answer signed, if it is one of ours for this ceremony (and user), unexpired and unused. */
  async function findChallenge(clientDataJSON: string, purpose: Purpose, userId: string | null): Promise<string> {
    const challenge = challengeOf(clientDataJSON);
    if (!challenge) throw new AppError('PASSKEY_INVALID');
    const conditions = [eq(passkeyChallenges.challengeHash, hashChallenge(challenge)), eq(passkeyChallenges.purpose, purpose), gt(passkeyChallenges.expiresAt, sql`now()`)];
    if (userId) conditions.push(eq(passkeyChallenges.userId, userId));
    const [row] = await db.select({ hash: passkeyChallenges.challengeHash }).from(passkeyChallenges).where(and(...conditions));
    if (!row) throw new AppError('PASSKEY_CHALLENGE_INVALID');
    return challenge;
  }

  /**
   * Spends a checked answer's challenge in the transaction that acts on it: the DELETE finds it only
   * once, so a replayed answer, even one racing the first, changes nothing. A refused answer
   * leaves it, so nothing at all changes for a refusal.
   */
  async function spendChallenge(tx: Db, challenge: string): Promise<void> {
    const spent = await tx.delete(passkeyChallenges).where(and(eq(passkeyChallenges.challengeHash, hashChallenge(challenge)), gt(passkeyChallenges.expiresAt, sql`now()`))).returning({ hash: passkeyChallenges.challengeHash });
    if (spent.length !== 1) throw new AppError('PASSKEY_CHALLENGE_INVALID');
  }

  function mail(user: { email: string; firstName: string }, kind: MailKind, name: string): void {
    const link = `${config.publicUrl}/#/profile/authentication`;
    mailer.later(() => mailer.send(user.email, renderMail(t, kind, { name: user.firstName, link, expiry: {}, passkey: name }), link));
  }

  const listOf = (userId: string) => db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt), asc(passkeys.id));

  /**
   * Checks an assertion against the stored credential: origin, RP ID, signature, user presence
   * (and verification when asked) and a counter above the stored one. Moves the counter up in a
   * statement that refuses to move it back, so two racing uses of one answer cannot both pass.
   */
  async function verifyAssertion(response: AuthenticationResponseBody, options: { userId: string | null; requireUserVerification: boolean }): Promise<{ user: SessionUser; passkey: PasskeyRow }> {
    const challenge = await findChallenge(response.response.clientDataJSON, 'signin', null);
    const [row] = await db.select({ passkey: passkeys, user: users }).from(passkeys).innerJoin(users, eq(users.id, passkeys.userId)).where(eq(passkeys.credentialId, response.id));
    // Another account's passkey answers as an unknown one: nobody learns whose it is. So does one
    // on an address nobody proved (kept from before passkeys needed a proved address).
    if (!row || (options.userId && row.user.id !== options.userId) || !row.user.emailVerifiedAt) throw new AppError('PASSKEY_UNKNOWN');
    const { passkey } = row;
    let verified;
    try {
      verified = await verifyAuthenticationResponse({
        response: response as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential: { id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: passkey.counter, transports: passkey.transports },
        requireUserVerification: options.requireUserVerification,
      });
    } catch (error) {
      if (error instanceof Error && /counter/i.test(error.message)) throw new AppError('PASSKEY_COUNTER');
      throw new AppError('PASSKEY_INVALID');
    }
    if (!verified.verified) throw new AppError('PASSKEY_INVALID');
    // Said only to the key's holder, and before the use is recorded or mailed.
    refuseSuspended(row.user);
    const { newCounter } = verified.authenticationInfo;
    const used = await db.transaction(async (tx) => {
      await spendChallenge(tx, challenge);
      // Authenticators that keep no counter send 0 every time; any other must go up.
      const counterMoves = newCounter === 0 && passkey.counter === 0 ? sql`true` : lt(passkeys.counter, newCounter);
      const [updated] = await tx
        .update(passkeys)
        .set({ counter: newCounter, lastUsedAt: sql`now()` })
        .where(and(eq(passkeys.id, passkey.id), counterMoves))
        .returning();
      // Thrown inside: the challenge stays unspent, so the refusal changes nothing.
      if (!updated) throw new AppError('PASSKEY_COUNTER');
      await recordAudit(tx, { actor: row.user, action: 'user.passkeyUse', targetType: 'user', targetId: row.user.id, after: { passkeyId: passkey.id, name: passkey.name } });
      return updated;
    });
    mail(row.user, 'passkeyUsed', passkey.name);
    return { user: row.user, passkey: used };
  }

  return {
    verifyAssertion,

    async list(actor: PasskeyActor): Promise<PasskeyDto[]> {
      return (await listOf(actor.user.id)).map(toDto);
    },

    /** Registration options for the signed-in user; their passkeys are excluded so one authenticator registers once. */
    async registrationOptions(actor: PasskeyActor): Promise<PasskeyOptionsDto> {
      requireFreshProof(actor);
      requireVerifiedAddress(actor.user);
      const { user } = actor;
      const existing = await listOf(user.id);
      if (existing.length >= PASSKEY_LIMITS.perUser) throw new AppError('PASSKEY_LIMIT', { params: { max: String(PASSKEY_LIMITS.perUser) } });
      const options = await generateRegistrationOptions({
        rpName: config.PRODUCT_NAME,
        rpID,
        userName: user.email,
        userDisplayName: `${user.firstName} ${user.lastName}`.trim(),
        userID: new TextEncoder().encode(user.id),
        attestationType: 'none',
        excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
        // Discoverable, so the passkey alone signs in; verified, so it is two factors in one.
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        timeout: ttlMs,
      });
      await keepChallenge(options.challenge, 'register', user.id);
      return { ...options };
    },

    async register(actor: PasskeyActor, body: RegisterPasskeyBody): Promise<PasskeyDto> {
      requireFreshProof(actor);
      requireVerifiedAddress(actor.user);
      const { user } = actor;
      const challenge = await findChallenge(body.response.response.clientDataJSON, 'register', user.id);
      let verified;
      try {
        verified = await verifyRegistrationResponse({
          response: body.response as RegistrationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: true,
        });
      } catch {
        throw new AppError('PASSKEY_INVALID');
      }
      if (!verified.verified) throw new AppError('PASSKEY_INVALID');
      const { credential } = verified.registrationInfo;
      const created = await db.transaction(async (tx) => {
        await spendChallenge(tx, challenge);
        const [held] = await tx.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, user.id));
        if ((held?.n ?? 0) >= PASSKEY_LIMITS.perUser) throw new AppError('PASSKEY_LIMIT', { params: { max: String(PASSKEY_LIMITS.perUser) } });
        const [row] = await tx
          .insert(passkeys)
          .values({ userId: user.id, credentialId: credential.id, publicKey: Buffer.from(credential.publicKey), counter: credential.counter, transports: credential.transports ?? [], name: body.name })
          .onConflictDoNothing()
          .returning();
        // The authenticator is registered already (to this account or another): nothing is added.
        if (!row) throw new AppError('PASSKEY_INVALID');
        await recordAudit(tx, { actor: user, action: 'user.passkeyAdd', targetType: 'user', targetId: user.id, after: { passkeyId: row.id, name: row.name } });
        return row;
      });
      mail(user, 'passkeyAdded', created.name);
      return toDto(created);
    },

    /**
     * Removes one of the actor's passkeys. Another account's passkey answers as a missing one; the
     * last way to sign in (no password, no usable Google sign-in, no other passkey) stays.
     */
    async remove(actor: PasskeyActor, passkeyId: string): Promise<void> {
      requireFreshProof(actor);
      const { user } = actor;
      const removed = await db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(passkeys)
          .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, user.id)))
          .for('update');
        if (!row) throw new AppError('PASSKEY_NOT_FOUND');
        const [account] = await tx.select({ passwordHash: users.passwordHash, via: users.via }).from(users).where(eq(users.id, user.id)).for('update');
        const [otherKeys] = await tx.select({ others: count() }).from(passkeys).where(and(eq(passkeys.userId, user.id), ne(passkeys.id, row.id)));
        const google = account?.via === 'google' && Boolean(config.GOOGLE_CLIENT_ID);
        if (!account?.passwordHash && !google && (otherKeys?.others ?? 0) === 0) throw new AppError('PASSKEY_LAST_SIGN_IN');
        await tx.delete(passkeys).where(eq(passkeys.id, row.id));
        await recordAudit(tx, { actor: user, action: 'user.passkeyRemove', targetType: 'user', targetId: user.id, before: { passkeyId: row.id, name: row.name } });
        return row;
      });
      mail(user, 'passkeyRemoved', removed.name);
    },

    /**
     * Options for a sign-in: no credential list, so the browser offers the passkeys it holds for
     * this site (the button, or the email field's autofill); user verification required.
     */
    async signInOptions(): Promise<PasskeyOptionsDto> {
      const options = await generateAuthenticationOptions({ rpID, userVerification: 'required', timeout: ttlMs });
      await keepChallenge(options.challenge, 'signin', null);
      return { ...options };
    },
  };
}

export type PasskeyService = ReturnType<typeof createPasskeyService>;
