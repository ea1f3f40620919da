import { describe, expect, it } from 'vitest';
import { tokenBody, tokenProblems, type TokenDraft } from './tokenRules';

const draft = (over: Partial<TokenDraft> = {}): TokenDraft => ({ purpose: 'CI export', endpoints: [], allApps: false, apps: ['a1'], neverExpires: false, amount: '2', unit: 'days', multiUse: true, ...over });

describe('token rules (SPEC §5)', () => {
  it('accepts a complete token', () => {
    expect(tokenProblems(draft())).toEqual([]);
  });
  it('needs apps unless all apps are allowed, and an expiry unless it never expires', () => {
    expect(tokenProblems(draft({ apps: [] }))).toEqual(['apps']);
    expect(tokenProblems(draft({ apps: [], allApps: true }))).toEqual([]);
    expect(tokenProblems(draft({ amount: '' }))).toEqual(['expiry']);
    expect(tokenProblems(draft({ amount: '', neverExpires: true }))).toEqual([]);
  });
  it('refuses empty, overlong or unprintable endpoint and parameter patterns', () => {
    expect(tokenProblems(draft({ endpoints: [{ path: '', params: [] }] }))).toEqual([{ endpoint: 0 }]);
    expect(tokenProblems(draft({ endpoints: [{ path: '/apps/*/events', params: [{ name: 'from', pattern: '2026\u0000' }] }] }))).toEqual([{ endpoint: 0, param: 0 }]);
    expect(tokenProblems(draft({ endpoints: [{ path: `/${'x'.repeat(200)}`, params: [] }] }))).toEqual([{ endpoint: 0 }]);
  });
  it('sends parameter restrictions as a map and no expiry for a token that never expires', () => {
    const body = tokenBody(draft({ neverExpires: true, endpoints: [{ path: '/apps/*/events', params: [{ name: ' from ', pattern: '2026-*' }] }] }));
    expect(body.endpoints).toEqual([{ path: '/apps/*/events', params: { from: '2026-*' } }]);
    expect(body.expiry).toBeNull();
  });
});
