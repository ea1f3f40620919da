import { describe, expect, it } from 'vitest';
import { safeRedirectTarget } from './redirectTarget';

const origin = 'https://portal.example.com';

describe('safeRedirectTarget', () => {
  it('follows http(s) addresses on this origin', () => {
    expect(safeRedirectTarget('https://portal.example.com/dashboard?x=1', origin)).toBe('https://portal.example.com/dashboard?x=1');
    expect(safeRedirectTarget('/servers/7', origin)).toBe('https://portal.example.com/servers/7');
  });

  it('refuses other origins, other schemes and nothing', () => {
    for (const raw of [
      null,
      '',
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'http://portal.example.com/',
      'javascript:alert(1)',
      'data:text/html,hi',
      'https://portal.example.com.evil.example/',
    ]) {
      expect(safeRedirectTarget(raw, origin)).toBeNull();
    }
  });

  it("follows another origin only for the server link this tab handed over, and that link only", () => {
    const link = 'https://shop-1a2b.servers.example/sso?token=abc';
    expect(safeRedirectTarget(link, origin, link)).toBe(link);
    expect(safeRedirectTarget('https://evil.example/', origin, link)).toBeNull();
    expect(safeRedirectTarget('javascript:alert(1)', origin, 'javascript:alert(1)')).toBeNull();
  });
});
