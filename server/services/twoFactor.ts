import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNotNull, isNull, lt, notLike, or, sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import type { Db } from '../db/client';
import { recoveryCodes, users } from '../db/schema';
import { recordAudit } from './audit';
import { AppError } from '../errors';
import type { Keyring } from './secrets';
import type { SessionUser } from './sessions';

const PERIOD_S = 30;
const RECOVERY_CODES = 10;

const RECOVERY_PURPOSE = 'recovery-code';
const normalise = (code: string) => code.trim().toLowerCase();

/** Codes made before keyed hashing were plain SHA-256; they keep working until used or replaced. */
function legacyMatch(code: string, stored: string): boolean {
  const a = Buffer.from(createHash('sha256').update(normalise(code)).digest('hex'));
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}

function totpFor(secret: string, label: string, issuer: string) {
  return new OTPAuth.TOTP({ issuer, label, secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: PERIOD_S, algorithm: 'SHA1' });
}

function newRecoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/**
 * TOTP two-factor sign-in (RFC 6238, ±1 step) with one-time recovery codes. Authenticator secrets
 * are stored encrypted and recovery codes as keyed hashes (see secrets.ts): a copy of the database
 * alone yields neither.
 */
export function createTwoFactorService({ db, issuer, keyring }: { db: Db; issuer: string; keyring: Keyring }) {
  const open = (sealed: string) => keyring.decrypt(sealed);

  /** The step a 6-digit code matches now (±1), or null. */
  function matchStep(secret: string, label: string, code: string): number | null {
    const delta = totpFor(secret, label, issuer).validate({ token: code, window: 1 });
    return delta === null ? null : Math.floor(Date.now() / 1000 / PERIOD_S) + delta;
  }

  /** Accepts a current TOTP code not used before, or an unused recovery code; each works once. */
  async function verify(user: SessionUser, code: string): Promise<boolean> {
    if (!user.totpSecret) return false;
    if (/^\d{6}$/.test(code)) {
      const secret = open(user.totpSecret);
      const step = matchStep(secret, user.email, code);
      if (step === null) return false;
      // Recording the step in the same statement that checks it makes a replayed code fail; a
      // secret sealed under a retired key is sealed again under the newest one.
      const claimed = await db
        .update(users)
        .set({ totpLastStep: step, ...(keyring.isStale(user.totpSecret) ? { totpSecret: keyring.encrypt(secret) } : {}) })
        .where(and(eq(users.id, user.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
        .returning({ id: users.id });
      return claimed.length === 1;
    }
    // Keyed hashes carry their key id, so each stored code is checked under its own key.
    const unused = await db
      .select({ id: recoveryCodes.id, codeHash: recoveryCodes.codeHash })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, user.id), isNull(recoveryCodes.usedAt)));
    const match = unused.find((row) => (row.codeHash.includes('.') ? keyring.verifyMac(RECOVERY_PURPOSE, `${user.id}:${normalise(code)}`, row.codeHash) : legacyMatch(code, row.codeHash)));
    if (!match) return false;
    const used = await db
      .update(recoveryCodes)
      .set({ usedAt: sql`now()` })
      .where(and(eq(recoveryCodes.id, match.id), isNull(recoveryCodes.usedAt)))
      .returning({ id: recoveryCodes.id });
    return used.length === 1;
  }

  return {
    verify,

    /** Seals authenticator secrets stored in clear by earlier versions; run at start. */
    async sealLegacySecrets(): Promise<number> {
      const rows = await db
        .select({ id: users.id, secret: users.totpSecret, pending: users.totpPendingSecret })
        .from(users)
        .where(or(and(isNotNull(users.totpSecret), notLike(users.totpSecret, 'v1.%')), and(isNotNull(users.totpPendingSecret), notLike(users.totpPendingSecret, 'v1.%'))));
      for (const row of rows) {
        const seal = (value: string | null) => (value && !value.startsWith('v1.') ? keyring.encrypt(value) : value);
        await db.update(users).set({ totpSecret: seal(row.secret), totpPendingSecret: seal(row.pending) }).where(eq(users.id, row.id));
      }
      return rows.length;
    },

    async initiate(user: SessionUser): Promise<{ secret: string; otpauthUri: string; qrImage: string }> {
      const secret = new OTPAuth.Secret({ size: 20 }).base32;
      await db.update(users).set({ totpPendingSecret: keyring.encrypt(secret) }).where(eq(users.id, user.id));
      const otpauthUri = totpFor(secret, user.email, issuer).toString();
      // Loaded on first use: few requests need it, and the server's start would load it for nothing.
      const { default: QRCode } = await import('qrcode');
      return { secret, otpauthUri, qrImage: await QRCode.toDataURL(otpauthUri, { margin: 1, width: 240 }) };
    },

    /** Proves the app is set up with a code, turns two-factor on and returns recovery codes once. */
    async enable(user: SessionUser, code: string): Promise<{ recoveryCodes: string[] }> {
      if (!user.totpPendingSecret) throw new AppError('TWO_FACTOR_NOT_PENDING');
      const step = matchStep(open(user.totpPendingSecret), user.email, code);
      if (step === null) throw new AppError('TWO_FACTOR_CODE_WRONG', { fieldErrors: { code: ['errors.TWO_FACTOR_CODE_WRONG'] } });
      const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
      const pending = user.totpPendingSecret;
      await db.transaction(async (tx) => {
        await tx.update(users).set({ totpSecret: pending, totpPendingSecret: null, totpLastStep: step, mfaEnabled: true }).where(eq(users.id, user.id));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
        await tx.insert(recoveryCodes).values(codes.map((c) => ({ userId: user.id, codeHash: keyring.mac(RECOVERY_PURPOSE, `${user.id}:${normalise(c)}`) })));
        await recordAudit(tx, { actor: user, action: 'user.twoFactorOn', targetType: 'user', targetId: user.id, before: { mfaEnabled: user.mfaEnabled }, after: { mfaEnabled: true } });
      });
      return { recoveryCodes: codes };
    },

    /** Turns two-factor off; the caller has checked a current code first. */
    async turnOff(user: SessionUser): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.update(users).set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null, mfaEnabled: false }).where(eq(users.id, user.id));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
        await recordAudit(tx, { actor: user, action: 'user.twoFactorOff', targetType: 'user', targetId: user.id, before: { mfaEnabled: true }, after: { mfaEnabled: false } });
      });
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
