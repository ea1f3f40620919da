import { describe, expect, it, vi } from 'vitest';
import { once } from './once';

describe('once', () => {
  it('shares a pending request and forgets it once settled', async () => {
    let finish: (v: string) => void = () => undefined;
    const request = vi.fn(() => new Promise<string>((resolve) => (finish = resolve)));
    const a = once('k', request);
    const b = once('k', request);
    expect(request).toHaveBeenCalledTimes(1);
    finish('done');
    await expect(a).resolves.toBe('done');
    await expect(b).resolves.toBe('done');
    await Promise.resolve();
    void once('k', request);
    expect(request).toHaveBeenCalledTimes(2);
  });

  it('forgets a failed request too', async () => {
    const request = vi.fn().mockRejectedValueOnce(new Error('bad')).mockResolvedValueOnce('ok');
    await expect(once('f', request)).rejects.toThrow('bad');
    await Promise.resolve();
    await expect(once('f', request)).resolves.toBe('ok');
  });
});
