import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';

/**
 * The built app's index.html carries the prerendered first screen as an inline script:
 * its page's Content-Security-Policy allows that script by its hash, and nothing else inline.
 */
const FIRST_SCREEN = "(function(){document.getElementById('root').textContent='first screen';})();";
const INDEX = `<!doctype html>
<html lang="en"><head><meta name="client-config" content="%CLIENT_CONFIG%" /><title>Beacon</title>
<script type="module" crossorigin src="/assets/index-abc.js"></script></head>
<body><div id="root"></div>
    <script data-first-screen>${FIRST_SCREEN}</script>
</body></html>`;
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const scriptSrc = (csp: unknown) => /(?:^|;)\s*script-src ([^;]*)/.exec(String(csp))?.[1]?.split(' ') ?? [];

let t: TestApp;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'beacon-spa-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets', 'index-abc.js'), 'export {};');
  t = await createTestApp({ STATIC_DIR: dir, TERMS_URL: 'https://legal.example.com/terms' });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('index.html and its first-screen script', () => {
  it('allows the inline first-screen script by its hash, and no other inline script', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(FIRST_SCREEN);
    const sources = scriptSrc(res.headers['content-security-policy']);
    expect(sources).toEqual(["'self'", sha256(FIRST_SCREEN)]);
    expect(sources.join(' ')).not.toMatch(/unsafe/);
    // The same script changed by one character is not allowed.
    expect(sources).not.toContain(sha256(FIRST_SCREEN.replace('first', 'other')));
  });

  it('keeps the hash on a revalidated page (304) and off every other answer', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/' });
    const again = await t.app.inject({ method: 'GET', url: '/', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(scriptSrc(again.headers['content-security-policy'])).toContain(sha256(FIRST_SCREEN));
    for (const url of ['/api/v1/health', '/assets/index-abc.js']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(scriptSrc(res.headers['content-security-policy'])).toEqual(["'self'"]);
    }
  });
});

describe('the legal documents the sign-up boxes link to', () => {
  it('sends the browser on to the configured page, shows a page saying what one not configured is, and knows no other', async () => {
    const terms = await t.app.inject({ method: 'GET', url: '/legal/terms' });
    expect([terms.statusCode, terms.headers.location]).toEqual([302, 'https://legal.example.com/terms']);
    const privacy = await t.app.inject({ method: 'GET', url: '/legal/privacy' });
    expect(privacy.statusCode).toBe(200);
    expect(privacy.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(privacy.body).toContain('<h1>Beacon privacy policy</h1>');
    expect(privacy.body).toContain('has not published this document yet');
    expect(privacy.body).toContain('<code>PRIVACY_URL</code>');
    expect(privacy.headers['content-security-policy']).toContain("default-src 'none'");
    expect((await t.app.inject({ method: 'GET', url: '/legal/constructor' })).statusCode).toBe(404);
  });
});
