import { describe, expect, it } from 'vitest';
import { redactUrl, serializeError } from './logging';

describe('log hygiene', () => {
  it('masks credential query parameters in URLs and keeps the rest', () => {
    expect(redactUrl('/api/v1/auth/unlock?token=abc123')).toBe('/api/v1/auth/unlock?token=[redacted]');
    expect(redactUrl('/x?ref=mail&Token=a&code=12345&authCode=1&%74oken=b&page=2')).toBe('/x?ref=mail&Token=[redacted]&code=[redacted]&authCode=[redacted]&%74oken=[redacted]&page=2');
    expect(redactUrl('/plain/path')).toBe('/plain/path');
    expect(redactUrl('/x?%E0%A4%A=1')).toBe('/x?%E0%A4%A=1');
  });

  it('logs a failed query with its SQL and code but without parameters or the values the database quotes', () => {
    const cause = Object.assign(new Error('invalid input syntax for type integer: "$argon2id$v=19$secret"'), { severity: 'ERROR', code: '22P02', detail: 'Key (email)=(a@b.c)', table: 'users' });
    const err = Object.assign(new Error('Failed query: select $1::int\nparams: $argon2id$v=19$secret,a@b.c'), { params: ['$argon2id$v=19$secret'], cause });
    const logged = JSON.stringify(serializeError(err));
    expect(logged).toContain('Failed query: select $1::int');
    expect(logged).toContain('22P02');
    expect(logged).toContain('"table":"users"');
    expect(logged).not.toContain('argon2');
    expect(logged).not.toContain('a@b.c');
  });
});
