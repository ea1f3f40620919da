import { describe, expect, it } from 'vitest';
import { createInvoiceLinkCache, INVOICE_LINK_TTL_MS } from './invoiceLinks';

describe('invoice link cache', () => {
  it('asks once for concurrent readers, reuses the link until shortly before it expires, then asks again', async () => {
    let clock = 0;
    const asked: string[] = [];
    const cache = createInvoiceLinkCache(
      async (id) => {
        asked.push(id);
        return `https://paddle.example/${id}/${asked.length}.pdf`;
      },
      { now: () => clock },
    );
    const burst = await Promise.all(Array.from({ length: 20 }, () => cache.get('txn_a')));
    expect(new Set(burst)).toEqual(new Set(['https://paddle.example/txn_a/1.pdf']));
    expect(asked).toEqual(['txn_a']);
    // Paddle's link lives an hour: it is still handed out before the margin, never after.
    expect(INVOICE_LINK_TTL_MS).toBeLessThan(60 * 60_000);
    clock = INVOICE_LINK_TTL_MS - 1;
    expect(await cache.get('txn_a')).toBe('https://paddle.example/txn_a/1.pdf');
    clock = INVOICE_LINK_TTL_MS;
    expect(await cache.get('txn_a')).toBe('https://paddle.example/txn_a/2.pdf');
    expect(await cache.get('txn_b')).toBe('https://paddle.example/txn_b/3.pdf');
    expect(asked).toEqual(['txn_a', 'txn_a', 'txn_b']);
  });

  it('does not keep a failure: the next reader asks again', async () => {
    let calls = 0;
    const cache = createInvoiceLinkCache(async () => {
      calls += 1;
      if (calls === 1) throw new Error('Paddle is down');
      return 'https://paddle.example/ok.pdf';
    });
    await expect(cache.get('txn_c')).rejects.toThrow('Paddle is down');
    expect(await cache.get('txn_c')).toBe('https://paddle.example/ok.pdf');
    expect(calls).toBe(2);
  });
});
