import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from './audit';

describe('redactSecrets', () => {
  it('hides every secret field at any depth and keeps the rest, a cleared secret included', () => {
    expect(redactSecrets({ name: 'Shop', checksumSalt: 's3cret', nested: { checksumSalt: 'x', list: [{ checksumSalt: 'y' }] } })).toEqual({
      name: 'Shop',
      checksumSalt: REDACTED,
      nested: { checksumSalt: REDACTED, list: [{ checksumSalt: REDACTED }] },
    });
    expect(redactSecrets({ checksumSalt: null })).toEqual({ checksumSalt: null });
    expect(redactSecrets({ checksumSalt: '' })).toEqual({ checksumSalt: '' });
    expect(redactSecrets(null)).toBeNull();
  });
});
