import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Paddle Billing's webhook signature: `Paddle-Signature: ts=<unix seconds>;h1=<hex>[;h1=<hex>]`,
 * where h1 = HMAC-SHA256(notification secret, `${ts}:${raw body}`). Several h1 values appear while
 * a secret is rotated: a match with one of them is enough.
 */

export type SignatureFailure = 'missing' | 'malformed' | 'stale' | 'mismatch';

const hmac = (secret: string, ts: string, rawBody: Buffer) => createHmac('sha256', secret).update(`${ts}:`).update(rawBody).digest();

/** The header value Paddle would send for this body at this time (also used by the stand-in). */
export function signPaddleBody(secret: string, rawBody: Buffer, now: Date = new Date()): string {
  const ts = String(Math.floor(now.getTime() / 1000));
  return `ts=${ts};h1=${hmac(secret, ts, rawBody).toString('hex')}`;
}

/** null when the signature is good; otherwise why not. Compares in constant time. */
export function verifyPaddleSignature(header: string | string[] | undefined, rawBody: Buffer, secret: string, toleranceSeconds: number, now: Date = new Date()): SignatureFailure | null {
  if (typeof header !== 'string' || !header) return 'missing';
  let ts: string | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) return 'malformed';
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 'ts') ts = value;
    else if (key === 'h1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  if (!ts || !/^\d{1,12}$/.test(ts) || !signatures.length) return 'malformed';
  // A replayed old notification (or one from the future) is refused even with a good signature.
  if (Math.abs(now.getTime() / 1000 - Number(ts)) > toleranceSeconds) return 'stale';
  const expected = hmac(secret, ts, rawBody);
  let matched = false;
  for (const signature of signatures) matched = timingSafeEqual(signature, expected) || matched;
  return matched ? null : 'mismatch';
}
