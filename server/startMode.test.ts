import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { decideStartMode, startModeLine, type PaymentsMode, type StartMode } from './startMode';

const NPM = { STARTED_BY: 'npm-start' };
const PADDLE = { PADDLE_API_KEY: 'k', PADDLE_WEBHOOK_SECRET: 's', PADDLE_CLIENT_TOKEN: 't', PADDLE_PRODUCT_ID: 'p' };
const DEPLOY = { PUBLIC_URL: 'https://beacon.example.com', SECRET_KEYS: 'k1:c2VjcmV0', SMTP_URL: 'smtp://mail.example.com:587' };

/** Environment -> mode and payments. */
const TABLE: [string, Record<string, string>, StartMode, PaymentsMode][] = [
  // A bare `npm start` is the demo: a newcomer orders with 4242…
  ['bare npm start', NPM, 'demo', 'stand-in'],
  ['npm start, PAYMENTS_STAND_IN=false', { ...NPM, PAYMENTS_STAND_IN: 'false' }, 'demo', 'off'],
  ['npm start, local http PUBLIC_URL', { ...NPM, PUBLIC_URL: 'http://localhost:3000' }, 'demo', 'stand-in'],
  ['npm start, local https PUBLIC_URL', { ...NPM, PUBLIC_URL: 'https://beacon.localhost' }, 'demo', 'stand-in'],
  ['npm start, https on 127.0.0.1', { ...NPM, PUBLIC_URL: 'https://127.0.0.1:8443' }, 'demo', 'stand-in'],
  ['npm start, https on ::1', { ...NPM, PUBLIC_URL: 'https://[::1]:8443' }, 'demo', 'stand-in'],
  ['npm start, public but plain http PUBLIC_URL', { ...NPM, PUBLIC_URL: 'http://beacon.example.com' }, 'demo', 'stand-in'],
  // Any production setting makes a start without NODE_ENV production: paid orders are refused.
  ['npm start with a deploy\'s settings', { ...NPM, ...DEPLOY }, 'production', 'off'],
  ['npm start, public https PUBLIC_URL alone', { ...NPM, PUBLIC_URL: 'https://beacon.example.com' }, 'production', 'off'],
  ['npm start, https on a host that only looks local', { ...NPM, PUBLIC_URL: 'https://localhost.example.com' }, 'production', 'off'],
  ['npm start, SECRET_KEYS alone', { ...NPM, SECRET_KEYS: DEPLOY.SECRET_KEYS }, 'production', 'off'],
  ['npm start, SMTP_URL alone', { ...NPM, SMTP_URL: DEPLOY.SMTP_URL }, 'production', 'off'],
  ['npm start, a deploy\'s settings, PAYMENTS_STAND_IN=true', { ...NPM, ...DEPLOY, PAYMENTS_STAND_IN: 'true' }, 'production', 'stand-in'],
  ['npm start, Paddle', { ...NPM, ...PADDLE }, 'production', 'paddle'],
  ['npm start, a deploy\'s settings and Paddle', { ...NPM, ...DEPLOY, ...PADDLE }, 'production', 'paddle'],
  // Any other start without NODE_ENV is production, as it always was.
  ['node dist-server/index.js, nothing set', {}, 'production', 'off'],
  ['node, PAYMENTS_STAND_IN=true', { PAYMENTS_STAND_IN: 'true' }, 'production', 'stand-in'],
  ['node, a deploy\'s settings', DEPLOY, 'production', 'off'],
  // NODE_ENV, when set, is the mode.
  ['NODE_ENV=production', { ...NPM, NODE_ENV: 'production' }, 'production', 'off'],
  ['NODE_ENV=production, PAYMENTS_STAND_IN=true', { NODE_ENV: 'production', PAYMENTS_STAND_IN: 'true' }, 'production', 'stand-in'],
  ['NODE_ENV=development', { NODE_ENV: 'development' }, 'development', 'stand-in'],
  ['NODE_ENV=development with a deploy\'s settings', { ...NPM, ...DEPLOY, NODE_ENV: 'development' }, 'development', 'stand-in'],
  ['NODE_ENV=test', { NODE_ENV: 'test' }, 'test', 'stand-in'],
  ['NODE_ENV=test, PAYMENTS_STAND_IN=false', { NODE_ENV: 'test', PAYMENTS_STAND_IN: 'false' }, 'test', 'off'],
  ['NODE_ENV=test, Paddle', { NODE_ENV: 'test', ...PADDLE }, 'test', 'paddle'],
];

describe('the start mode', () => {
  it.each(TABLE)('%s: %s, payments %s', (_name, env, mode, payments) => {
    expect(decideStartMode(env)).toMatchObject({ mode, payments });
    // loadConfig decides the same from the same environment, an empty variable counting as unset.
    expect(loadConfig({ ...env, NODE_ENV: env.NODE_ENV ?? '' })).toMatchObject({ mode, payments });
  });

  it('says why: the production settings it found, and what payments do', () => {
    const production = decideStartMode({ ...NPM, ...DEPLOY });
    expect(production.reasons).toEqual([
      'NODE_ENV is unset but the start carries production settings: PUBLIC_URL is public https (beacon.example.com), SECRET_KEYS is set, SMTP_URL is set',
      'no PADDLE_* and PAYMENTS_STAND_IN unset in production: paid orders are refused (PAYMENTS_STAND_IN=true takes test cards instead)',
    ]);
    expect(startModeLine(production)).toEqual({ level: 'warn', message: `mode production, payments off: ${production.reasons.join('; ')}` });

    const demo = decideStartMode(NPM);
    expect(demo.reasons.join('; ')).toMatch(/^npm start with no NODE_ENV and no production setting .*; demo: the checkout stand-in takes test cards/);
    expect(startModeLine(demo).level).toBe('info');
    expect(startModeLine(decideStartMode({ NODE_ENV: 'production', PAYMENTS_STAND_IN: 'true' }))).toMatchObject({ level: 'warn', message: expect.stringContaining('PAYMENTS_STAND_IN=true') });
    expect(startModeLine(decideStartMode({ NODE_ENV: 'production', ...PADDLE })).level).toBe('info');
  });

  it('takes STARTED_BY only as npm start sets it', () => {
    expect(() => loadConfig({ STARTED_BY: 'me' })).toThrow(/STARTED_BY/);
  });
});
