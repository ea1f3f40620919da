import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, or, lt, sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import type { Db } from '../db/client';
import { recoveryCodes, users } from '../db/schema';
import { AppError } from '../errors';
import type { SessionUser } from './sessions';

const PERIOD_S = 30;
const RECOVERY_CODES = 10;

const hashRecovery = (code: string) => createHash('sha256').update(code.trim().toLowerCase()).digest('hex');

function totpFor(secret: string, label: string, issuer: string) {
  return new OTPAuth.TOTP({ issuer, label, secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: PERIOD_S, algorithm: 'SHA1' });
}

function newRecoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** TOTP two-factor sign-in (RFC 6238, ±1 step) with one-time recovery codes. */
export function createTwoFactorService(db: Db, issuer: string) {
  /** The step a 6-digit code matches now (±1), or null. */
  function matchStep(secret: string, label: string, code: string): number | null {
    const delta = totpFor(secret, label, issuer).validate({ token: code, window: 1 });
    return delta === null ? null : Math.floor(Date.now() / 1000 / PERIOD_S) + delta;
  }

  /** Accepts a current TOTP code not used before, or an unused recovery code; each works once. */
  async function verify(user: SessionUser, code: string): Promise<boolean> {
    if (!user.totpSecret) return false;
    if (/^\d{6}$/.test(code)) {
      const step = matchStep(user.totpSecret, user.email, code);
      if (step === null) return false;
      // Recording the step in the same statement that checks it makes a replayed code fail.
      const claimed = await db
        .update(users)
        .set({ totpLastStep: step })
        .where(and(eq(users.id, user.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
        .returning({ id: users.id });
      return claimed.length === 1;
    }
    const used = await db
      .update(recoveryCodes)
      .set({ usedAt: sql`now()` })
      .where(and(eq(recoveryCodes.userId, user.id), eq(recoveryCodes.codeHash, hashRecovery(code)), isNull(recoveryCodes.usedAt)))
      .returning({ id: recoveryCodes.id });
    return used.length === 1;
  }

  return {
    verify,

    async initiate(user: SessionUser): Promise<{ secret: string; otpauthUri: string; qrImage: string }> {
      const secret = new OTPAuth.Secret({ size: 20 }).base32;
      await db.update(users).set({ totpPendingSecret: secret }).where(eq(users.id, user.id));
      const otpauthUri = totpFor(secret, user.email, issuer).toString();
      return { secret, otpauthUri, qrImage: await QRCode.toDataURL(otpauthUri, { margin: 1, width: 240 }) };
    },

    /** Proves the app is set up with a code, turns two-factor on and returns recovery codes once. */
    async enable(user: SessionUser, code: string): Promise<{ recoveryCodes: string[] }> {
      if (!user.totpPendingSecret) throw new AppError('TWO_FACTOR_NOT_PENDING', 400);
      const step = matchStep(user.totpPendingSecret, user.email, code);
      if (step === null) throw new AppError('TWO_FACTOR_FAILED', 400, 'errors.TWO_FACTOR_FAILED', { code: ['errors.TWO_FACTOR_FAILED'] });
      const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
      const pending = user.totpPendingSecret;
      await db.transaction(async (tx) => {
        await tx.update(users).set({ totpSecret: pending, totpPendingSecret: null, totpLastStep: step, mfaEnabled: true }).where(eq(users.id, user.id));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
        await tx.insert(recoveryCodes).values(codes.map((c) => ({ userId: user.id, codeHash: hashRecovery(c) })));
      });
      return { recoveryCodes: codes };
    },

    async disable(user: SessionUser, code: string): Promise<void> {
      if (!user.mfaEnabled || !(await verify(user, code))) throw new AppError('TWO_FACTOR_FAILED', 400, 'errors.TWO_FACTOR_FAILED', { code: ['errors.TWO_FACTOR_FAILED'] });
      await db.transaction(async (tx) => {
        await tx.update(users).set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null, mfaEnabled: false }).where(eq(users.id, user.id));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
      });
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
