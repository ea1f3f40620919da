import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDto } from '../../analytics/domain/schemas';
import { analyticsServer, createAnalyticsApp, dashboard } from '../support/analytics';
import { loadCatalogue } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

// A token's patterns once ran in the backtracking regular-expression engine, and
// '(a|a)*' against 27 characters held the event loop for 10 s. Patterns are now literal text with
// '*' wildcards, matched without backtracking.
let t: TestApp;
let server: Awaited<ReturnType<typeof analyticsServer>>;
let app: AppDto;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  server = await analyticsServer(t.app, await loadCatalogue(t.app), 'patterns-owner@example.com');
  app = await createAnalyticsApp(t.app, server.deploymentId, server.owner.cookie);
  // A real socket: the attack's value goes through the HTTP parser, and health is asked on its own connection.
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address !== 'object') throw new Error('no address');
  base = `http://127.0.0.1:${address.port}`;
});
afterAll(() => t.close());

const call = () => dashboard(t.app, server.deploymentId);
const createToken = async (endpoints: { path: string; params: Record<string, string> }[]) => {
  const res = await call()('POST', '/tokens', { cookie: server.owner.cookie }, { purpose: 'Patterns', neverExpires: true, allApps: true, endpoints });
  expect(res.statusCode).toBe(201);
  return res.json<{ payload: { token: string } }>().payload.token;
};

/** An answer over HTTP: its status and error code. */
async function answer(url: string, headers: Record<string, string> = {}): Promise<{ status: number; code?: string }> {
  const res = await fetch(url, { headers });
  const body = (await res.json()) as { code?: string };
  return { status: res.status, code: body.code };
}

describe('token patterns', () => {
  // No timing assertion: a backtracking matcher holds these requests for hours, so the test's own
  // timeout is what fails it; the bench measures speed.
  it('answers the worst patterns against a 12,000-character value, and health meanwhile', async () => {
    // The pattern that held the loop, many stars (each part searched once), a long part, and all of them at once.
    const worst = [`(a|a)*`, `${'*a'.repeat(99)}*b`, `*${'a'.repeat(197)}b*`, `${'*'.repeat(199)}b`];
    const worstToken = await createToken([...worst.map((pattern) => ({ path: pattern, params: {} })), ...worst.map((pattern) => ({ path: '*', params: { q: pattern } }))]);
    const plainToken = await createToken([{ path: '/apps', params: { q: 'plain' } }]);
    // Near the 16 kB the HTTP parser takes for the request line and headers; matches no pattern.
    const value = `${'a'.repeat(12_000)}!`;
    // A route whose query has no schema of its own, so the value reaches the token's patterns (the app
    // list's own `q` is refused past 200 characters before any token is looked at).
    const url = `${base}/api/v1/analytics/${server.deploymentId}/versions?q=${value}`;
    const before = await tableCounts(t.app);

    for (let round = 0; round < 5; round++) {
      const p = await answer(url, { 'countly-token': plainToken });
      const [w, h] = await Promise.all([answer(url, { 'countly-token': worstToken }), answer(`${base}/api/v1/health`)]);
      expect([p.status, p.code, w.status, w.code, h.status]).toEqual([403, 'ANALYTICS_TOKEN_REFUSED', 403, 'ANALYTICS_TOKEN_REFUSED', 200]);
    }
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('opens what a star covers and nothing else', async () => {
    const token = await createToken([{ path: '/apps/*/limits', params: {} }, { path: '/apps', params: { q: '2026-*' } }]);
    const withToken = { headers: { 'countly-token': token } };
    expect((await call()('GET', `/apps/${app._id}/limits`, withToken)).statusCode).toBe(200);
    expect((await call()('GET', '/apps?q=2026-01', withToken)).statusCode).toBe(200);
    for (const path of ['/apps', '/apps?q=2025-01', '/members', '/jobs']) {
      const res = await call()('GET', path, withToken);
      expect([res.statusCode, res.json<{ code: string }>().code]).toEqual([403, 'ANALYTICS_TOKEN_REFUSED']);
    }
  });

  it('refuses empty, overlong and unprintable patterns, changing nothing', async () => {
    const before = await tableCounts(t.app);
    for (const endpoints of [[{ path: '', params: {} }], [{ path: `/${'a'.repeat(200)}`, params: {} }], [{ path: '/apps', params: { q: 'a\u0007' } }], [{ path: '/apps\u001b', params: {} }], [{ path: '/apps', params: { 'q\u0001': 'a' } }], [{ path: '/apps', params: { ' ': 'a' } }]]) {
      const res = await call()('POST', '/tokens', { cookie: server.owner.cookie }, { purpose: 'Bad', neverExpires: true, allApps: true, endpoints });
      expect([res.statusCode, res.json<{ code: string }>().code]).toEqual([400, 'ANALYTICS_TOKEN_PATTERN_INVALID']);
    }
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('carries stored regular expressions over: .* becomes *, any other expression expires its token', async () => {
    const [member] = await t.app.database.rows<{ id: string; tenant_id: string }>(`select m.id, m.tenant_id from analytics_members m join users u on u.id = m.user_id where u.email = '${server.owner.email}'`);
    if (!member) throw new Error('no member');
    const stored = {
      dotStar: [{ path: '/apps/.*', params: { from: '2026-.*' } }],
      literal: [{ path: '/apps', params: {} }],
      expression: [{ path: '/apps/[^/]+/events', params: {} }],
      star: [{ path: '/apps', params: { q: 'a*' } }],
    };
    for (const [purpose, endpoints] of Object.entries(stored)) {
      await t.app.database.rows(`insert into analytics_tokens (tenant_id, owner_id, token_hash, purpose, endpoints) values ('${member.tenant_id}', '${member.id}', '${purpose}-hash', 'old-${purpose}', '${JSON.stringify(endpoints)}'::jsonb)`);
    }
    const migration = readFileSync(new URL('../../server/db/migrations/0017_token_patterns_as_globs.sql', import.meta.url), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) await t.app.database.rows(statement);
    const rows = await t.app.database.rows<{ purpose: string; endpoints: unknown; expired: boolean }>(`select purpose, endpoints, expires_at is not null and expires_at <= now() as expired from analytics_tokens where purpose like 'old-%' order by purpose`);
    expect(rows).toEqual([
      { purpose: 'old-dotStar', endpoints: [{ path: '/apps/*', params: { from: '2026-*' } }], expired: false },
      { purpose: 'old-expression', endpoints: [{ path: '/apps/[^/]+/events', params: {} }], expired: true },
      { purpose: 'old-literal', endpoints: [{ path: '/apps', params: {} }], expired: false },
      { purpose: 'old-star', endpoints: [{ path: '/apps', params: { q: 'a*' } }], expired: true },
    ]);
  });
});
