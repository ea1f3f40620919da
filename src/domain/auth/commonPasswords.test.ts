import { describe, expect, it } from 'vitest';
import { isCommonPassword } from './commonPasswords';

describe('common passwords', () => {
  it('refuses common words decorated to pass the character rules', () => {
    for (const p of ['Password1!', 'Welcome123!', 'Qwerty1@', 'P@ssw0rd', 'Aaaaaaa1!', 'Letmein#9', '12345678!']) expect(isCommonPassword(p), p).toBe(true);
  });
  it('accepts passwords that are not a decorated common word', () => {
    for (const p of ['Tr1cky-Lantern', 'Blue#Kettle42', 'correct.Horse9battery']) expect(isCommonPassword(p), p).toBe(false);
  });
});
