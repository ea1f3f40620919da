import { describe, expect, it } from 'vitest';
import { securityHeaders } from './security';

describe('securityHeaders', () => {
  it('works out helmet’s headers once, from the options alone', () => {
    const headers = securityHeaders({ contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'self'"], frameAncestors: ["'none'"] } }, strictTransportSecurity: false });
    expect(headers['content-security-policy']).toBe("default-src 'self';frame-ancestors 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(headers['strict-transport-security']).toBeUndefined();
    expect(securityHeaders({ strictTransportSecurity: true })['strict-transport-security']).toMatch(/^max-age=\d+/);
  });
});
