/**
 * Paddle's invoice PDF address per transaction, kept for its lifetime: Paddle's link expires an
 * hour after it is made, so it is reused until shortly before that, and requests arriving while
 * it is being fetched wait for that one call. However many times a member opens an invoice, one
 * vendor transaction costs at most one call to Paddle's API per link lifetime (per process).
 */

/** Paddle's link lives an hour; it is not handed out in its last ten minutes. */
export const INVOICE_LINK_TTL_MS = 50 * 60_000;
/** Transactions remembered at once: the oldest is forgotten first. */
const MAX_ENTRIES = 2_000;

interface Entry {
  link: Promise<string | null>;
  expiresAt: number;
}

export function createInvoiceLinkCache(fetchLink: (vendorTransactionId: string) => Promise<string | null>, options: { ttlMs?: number; now?: () => number } = {}) {
  const ttlMs = options.ttlMs ?? INVOICE_LINK_TTL_MS;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  return {
    async get(vendorTransactionId: string): Promise<string | null> {
      const cached = entries.get(vendorTransactionId);
      if (cached && cached.expiresAt > now()) return cached.link;
      entries.delete(vendorTransactionId);
      const link = fetchLink(vendorTransactionId);
      const entry = { link, expiresAt: now() + ttlMs };
      entries.set(vendorTransactionId, entry);
      if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      try {
        return await link;
      } catch (err) {
        // A failed call is not remembered: the next request asks again (the route's rate limit bounds how often).
        if (entries.get(vendorTransactionId) === entry) entries.delete(vendorTransactionId);
        throw err;
      }
    },
  };
}
