import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { censorLog, LOG_HYGIENE, redactUrl, serializeError } from './logging';

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

  it('censors credential keys at the top and one level down, and credential headers there, without changing what was logged', () => {
    const options = { headers: { cookie: 's=1', authorization: 'Bearer x', accept: 'text/html' }, limits: { fileSize: 10 } };
    const log = { msg: 'started', code: 'ABC123', token: 't', user: { id: 'u1', password: 'p', passwordHash: '$argon2id$x' }, busboyOptions: options, headers: { 'set-cookie': 'a=b', 'countly-token': 'c', host: 'h' }, job: { code: 'ECONNREFUSED' }, list: [{ password: 'deeper in an array is not walked' }] };
    const before = JSON.stringify(log);
    expect(censorLog(log)).toEqual({
      msg: 'started',
      code: '[redacted]',
      token: '[redacted]',
      user: { id: 'u1', password: '[redacted]', passwordHash: '[redacted]' },
      busboyOptions: { headers: { cookie: '[redacted]', authorization: '[redacted]', accept: 'text/html' }, limits: { fileSize: 10 } },
      headers: { 'set-cookie': '[redacted]', 'countly-token': '[redacted]', host: 'h' },
      // Nested, `code` is an error's code.
      job: { code: 'ECONNREFUSED' },
      list: log.list,
    });
    expect(JSON.stringify(log)).toBe(before);
    const clean = { msg: 'request completed', reqId: 'r1', res: { statusCode: 200 }, responseTime: 1.2 };
    expect(censorLog(clean)).toBe(clean);
  });

  it('writes censored lines through a logger made as the server and the worker process make theirs', () => {
    const lines: string[] = [];
    const logger = pino({ level: 'debug', base: undefined, timestamp: false, ...LOG_HYGIENE }, { write: (line: string) => lines.push(line) });
    const child = logger.child({ reqId: 'r1' });
    child.debug({ busboyOptions: { headers: { cookie: 'c=secret' } }, password: 'secret' }, 'options');
    child.error({ err: Object.assign(new Error('boom'), { params: ['secret'] }) }, 'failed');
    const text = lines.join('');
    expect(text).not.toContain('secret');
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ reqId: 'r1', busboyOptions: { headers: { cookie: '[redacted]' } }, password: '[redacted]', msg: 'options' });
    expect(JSON.parse(lines[1] ?? '{}')).toMatchObject({ err: { type: 'Error', message: 'boom' }, msg: 'failed' });
  });
});
