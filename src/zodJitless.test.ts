import { describe, expect, it } from 'vitest';

describe('zodJitless', () => {
  it('turns on zod’s jitless mode without importing zod first', async () => {
    await import('./zodJitless');
    const { globalConfig } = await import('zod/v4/core');
    expect(globalConfig.jitless).toBe(true);
  });
});
