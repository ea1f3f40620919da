import argon2 from 'argon2';

/**
 * argon2id at OWASP's minimum (19 MiB, t=2, p=1). Hashing is memory-hungry, so at most two run
 * at a time; further calls wait their turn instead of exhausting memory under a burst.
 */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const MAX_CONCURRENT = 2;

let running = 0;
const waiting: (() => void)[] = [];

async function withSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

export function hashPassword(password: string): Promise<string> {
  return withSlot(() => argon2.hash(password, OPTIONS));
}

export function verifyPassword(hash: string, password: string): Promise<boolean> {
  return withSlot(() => argon2.verify(hash, password));
}
