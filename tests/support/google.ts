import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';

export const TEST_GOOGLE_CLIENT_ID = 'beacon-test.apps.googleusercontent.com';

/**
 * A stand-in for Google's key endpoint: a fresh RSA key whose public half is served as a JWKS on
 * loopback. Tests sign ID tokens with the private half; the server checks them like Google's.
 */
export async function startGoogleKeys(): Promise<{ jwksUrl: string; privateJwk: JWK; close(): Promise<void> }> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = 'test-key-1';
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }] });
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('no address');
  return {
    jwksUrl: `http://127.0.0.1:${address.port}/certs`,
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'RS256' },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface GoogleClaims {
  email: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  aud?: string;
  iss?: string;
  /** Seconds from now; negative for a token that has expired. */
  expiresIn?: number;
}

/** An ID token shaped like Google's, signed with the test key. */
export async function signGoogleToken(privateJwk: JWK, claims: GoogleClaims): Promise<string> {
  const key = await importJWK(privateJwk, 'RS256');
  const now = Math.floor(Date.now() / 1000);
  const { email, email_verified = true, given_name = 'Gina', family_name = 'Google', aud = TEST_GOOGLE_CLIENT_ID, iss = 'https://accounts.google.com', expiresIn = 3600 } = claims;
  return new SignJWT({ email, email_verified, given_name, family_name })
    .setProtectedHeader({ alg: 'RS256', kid: privateJwk.kid ?? '' })
    .setIssuer(iss)
    .setAudience(aud)
    .setSubject(`google-${email}`)
    // Google gives every token its own id, so no two tokens are the same string.
    .setJti(randomUUID())
    .setIssuedAt(now - 60)
    .setExpirationTime(now + expiresIn)
    .sign(key);
}
