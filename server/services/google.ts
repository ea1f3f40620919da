import { createHash } from 'node:crypto';
import type { JWTVerifyGetKey } from 'jose';
import { AppError } from '../errors';

/** What a checked Google ID token tells about its holder. */
export interface GoogleIdentity {
  subject: string;
  /** SHA-256 of the token itself, so it can be spent once. */
  tokenHash: string;
  expiresAt: Date;
  email: string;
  firstName: string;
  lastName: string;
}

const ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];

// Google names can be one letter or very long; our names are 2 to 64 characters.
const fitName = (name: string | undefined, fallback: string) => {
  const trimmed = (name ?? '').replace(/<[^>]*>/g, '').trim().slice(0, 64);
  return trimmed.length >= 2 ? trimmed : fallback;
};

/**
 * Checks Google ID tokens: signature against Google's published keys (fetched and cached by jose),
 * audience = our client id, issuer, expiry, and a verified email. Anything else is refused.
 */
export function createGoogleVerifier({ clientId, jwksUrl }: { clientId: string | undefined; jwksUrl: string }) {
  let keys: JWTVerifyGetKey | null = null;
  return {
    enabled: Boolean(clientId),
    async verify(idToken: string): Promise<GoogleIdentity> {
      if (!clientId) throw new AppError('GOOGLE_DISABLED');
      // Loaded on first use, not at the server's start.
      const { createRemoteJWKSet, errors: joseErrors, jwtVerify } = await import('jose');
      keys ??= createRemoteJWKSet(new URL(jwksUrl));
      try {
        const { payload } = await jwtVerify(idToken, keys, { issuer: ISSUERS, audience: clientId, algorithms: ['RS256'], clockTolerance: 30 });
        const email = typeof payload.email === 'string' ? payload.email.trim().toLowerCase() : '';
        if (!email || payload.email_verified !== true || !payload.sub) throw new AppError('GOOGLE_TOKEN_INVALID');
        const local = email.split('@')[0] ?? 'User';
        const given = typeof payload.given_name === 'string' ? payload.given_name : undefined;
        const family = typeof payload.family_name === 'string' ? payload.family_name : undefined;
        const tokenHash = createHash('sha256').update(idToken).digest('hex');
        const expiresAt = new Date(((payload.exp ?? 0) + 60) * 1000);
        return { subject: payload.sub, tokenHash, expiresAt, email, firstName: fitName(given, fitName(local, 'User')), lastName: fitName(family, 'Google') };
      } catch (err) {
        if (err instanceof AppError) throw err;
        // A bad token is the client's problem; Google's keys being unreachable is ours.
        if (err instanceof joseErrors.JOSEError && !(err instanceof joseErrors.JWKSTimeout)) throw new AppError('GOOGLE_TOKEN_INVALID');
        throw new AppError('SERVICE_UNAVAILABLE');
      }
    },
  };
}

export type GoogleVerifier = ReturnType<typeof createGoogleVerifier>;
