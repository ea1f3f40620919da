import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_ACCESS, may, type AccessLevel, type RouteRule } from '../../src/domain/companies/access';
import type { CompanyRole } from '../../src/domain/constants';
import { addMember, companyOwner, loadCatalogue, orderBody, pay, postOrder } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

/**
 * The role table walked: every operation of the OpenAPI document is either open, the admin area's
 * or in ROUTE_ACCESS; each company-scoped one is called by an admin, a viewer, a billing member
 * and a stranger, naming the company's own ids, and the answers are compared with the table. A
 * refusal comes before the body is read, so the walk sends no body: an allowed call is answered
 * anything but a role refusal (most are 400 for the missing body), a refused one the level's 403.
 */
const REFUSAL: Record<AccessLevel, string> = { member: 'NOT_A_MEMBER', servers: 'SERVERS_ROLE_REQUIRED', billing: 'BILLING_ROLE_REQUIRED', admin: 'ROLE_REQUIRED' };
const ROLE_CODES = new Set([...Object.values(REFUSAL), 'QUOTE_NOT_FOUND']);
/** Called last, by the admin: they end the server or the company the rest of the walk uses. */
const LAST = ['DELETE /deployments/{id}', 'DELETE /companies/{id}'];

let t: TestApp;
const cookies: Partial<Record<CompanyRole | 'stranger', string>> = {};
const ids: Record<string, string> = {};
let doc: { paths: Record<string, Record<string, unknown>> };

beforeAll(async () => {
  t = await createTestApp();
  const owner = await companyOwner(t.app, 'walk-owner@example.com');
  const cat = await loadCatalogue(t.app);
  cookies.admin = owner.cookie;
  cookies.viewer = await addMember(t.app, owner.companyId, 'walk-viewer@example.com', 'viewer');
  cookies.billing = await addMember(t.app, owner.companyId, 'walk-billing@example.com', 'billing');
  cookies.stranger = (await companyOwner(t.app, 'walk-stranger@example.com')).cookie;
  const order = await postOrder(t.app, owner.cookie, orderBody(cat, owner));
  const deploymentId = order.json<{ payload: { _id: string } }>().payload._id;
  expect((await pay(t.app, owner.cookie, deploymentId)).statusCode).toBe(200);
  const [tx] = await t.app.database.rows<{ id: string }>(`select id from transactions where deployment_id = '${deploymentId}'`);
  const { company, project, ...quoteOrder } = orderBody(cat, owner, { name: 'Quoted server' });
  void company;
  const quote = await t.app.inject({ method: 'POST', url: `/api/v1/companies/${owner.companyId}/quotes`, payload: { ...quoteOrder, project }, headers: { cookie: owner.cookie } });
  expect(quote.statusCode, quote.body).toBe(201);
  Object.assign(ids, { company: owner.companyId, deployment: deploymentId, txId: tx?.id ?? '', quote: quote.json<{ payload: { _id: string } }>().payload._id, projectId: owner.projectId });
  doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
});
afterAll(() => t?.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => ({ key: `${method.toUpperCase()} ${path.replace(/^\/api\/v1/, '')}`, path: path.replace(/^\/api\/v1/, ''), method: method.toUpperCase() })));

/** The operation's address with the company's own ids (a server, a quote, a transaction); other ids are made up. */
function address(path: string, rule: Extract<RouteRule, { scope: 'company' }>): string {
  const named = rule.company.startsWith('server:') ? ids.deployment : rule.company.startsWith('quote:') ? ids.quote : ids.company;
  const url = path
    .replace('{id}', named ?? '')
    .replace('{company}', ids.company ?? '')
    .replace('{deploymentId}', ids.deployment ?? '')
    .replace('{txId}', ids.txId ?? '')
    .replace('{projectId}', ids.projectId ?? '')
    .replace(/\{\w+\}/g, () => randomUUID());
  if (rule.company === 'company:query.company') return `${url}?company=${ids.company}`;
  if (rule.company === 'server:query._id') return `${url}?_id=${ids.deployment}`;
  return url;
}

function payloadFor(rule: Extract<RouteRule, { scope: 'company' }>): Record<string, string> | undefined {
  if (rule.company === 'company:body.company') return { company: ids.company ?? '' };
  if (rule.company === 'server:body._id') return { _id: ids.deployment ?? '' };
  return undefined;
}

describe('the role table', () => {
  it('names every operation of the signed-in scope, and nothing the document lacks', () => {
    const keys = new Set(operations().map((o) => o.key));
    for (const key of Object.keys(ROUTE_ACCESS)) expect(keys.has(key), `${key} is in ROUTE_ACCESS but not in the API`).toBe(true);
  });

  it('says what each role may do as the product promises', () => {
    // The billing role: Billing (invoices, receipts, card, payments, usage, forecast) and quotes;
    // never ordering, changing or deleting servers, the team, or the dashboards.
    const billing = {
      allowed: ['GET /companies/{id}/billing', 'GET /companies/{id}/transactions/{txId}/invoice', 'GET /companies/{id}/transactions/{txId}/receipt', 'POST /companies/{id}/billing/card', 'POST /payments/checkout/{deploymentId}/pay', 'GET /companies/{id}/usage', 'POST /quotes/{id}/approve', 'POST /quotes/{id}/decline', 'GET /companies/{id}/quotes'],
      refused: ['POST /deployments', 'PUT /deployments/{id}', 'DELETE /deployments/{id}', 'POST /deployments/{id}/restart', 'POST /companies/{id}/invitations', 'DELETE /companies/{id}/users/{userId}', 'POST /analytics/{deploymentId}/open', 'GET /deployments/{id}/populated', 'POST /companies/{id}/quotes'],
    };
    const level = (key: string) => {
      const rule = (ROUTE_ACCESS as Record<string, RouteRule>)[key];
      if (rule?.scope !== 'company') throw new Error(`${key} is not company-scoped`);
      return rule.level;
    };
    for (const key of billing.allowed) expect(may('billing', level(key)), key).toBe(true);
    for (const key of billing.refused) expect(may('billing', level(key)), key).toBe(false);
    // Viewers see servers and dashboards, never the money or a change; admins may do everything.
    for (const key of ['GET /deployments/{id}/populated', 'POST /analytics/{deploymentId}/open']) expect(may('viewer', level(key)), key).toBe(true);
    for (const key of ['GET /companies/{id}/billing', 'POST /payments/checkout/{deploymentId}/pay', 'POST /quotes/{id}/approve', 'POST /deployments']) expect(may('viewer', level(key)), key).toBe(false);
    for (const key of Object.keys(ROUTE_ACCESS)) if ((ROUTE_ACCESS as Record<string, RouteRule>)[key]?.scope === 'company') expect(may('admin', level(key)), key).toBe(true);
  });

  it('keeps the billing role out of the dashboards and their servers list', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/deployments/by-user', headers: { cookie: cookies.billing ?? '' } });
    expect(list.statusCode).toBe(200);
    expect(list.json<{ payload: unknown[] }>().payload).toEqual([]);
    const asViewer = await t.app.inject({ method: 'GET', url: '/api/v1/deployments/by-user', headers: { cookie: cookies.viewer ?? '' } });
    expect(asViewer.json<{ payload: unknown[] }>().payload.length).toBeGreaterThan(0);
  });

  it('answers each role of the company as the table says, before reading the body', async () => {
    const before = await tableCounts(t.app);
    const companyOps = operations()
      .map((o) => ({ ...o, rule: (ROUTE_ACCESS as Record<string, RouteRule>)[o.key] }))
      .filter((o): o is typeof o & { rule: Extract<RouteRule, { scope: 'company' }> } => o.rule?.scope === 'company');
    expect(companyOps.length).toBeGreaterThan(45);
    const mismatches: string[] = [];
    const call = async (who: CompanyRole | 'stranger', op: (typeof companyOps)[number]) => {
      const res = await t.app.inject({ method: op.method as 'GET', url: `/api/v1${address(op.path, op.rule)}`, payload: payloadFor(op.rule), headers: { cookie: cookies[who] ?? '' } });
      const code = res.statusCode >= 400 ? res.json<{ code?: string }>().code : undefined;
      const refusedAs = code && ROLE_CODES.has(code) ? code : null;
      const quoteRoute = op.rule.company.startsWith('quote:');
      const expected = who === 'stranger' ? (quoteRoute ? 'QUOTE_NOT_FOUND' : 'NOT_A_MEMBER') : may(who, op.rule.level) ? null : quoteRoute ? 'QUOTE_NOT_FOUND' : REFUSAL[op.rule.level];
      if (refusedAs !== expected) mismatches.push(`${who} ${op.key}: expected ${expected ?? 'allowed'}, got ${res.statusCode} ${code ?? ''}`);
    };
    // Refusals first, counted: they must change nothing.
    for (const who of ['stranger', 'viewer', 'billing'] as const) for (const op of companyOps) if (who === 'stranger' || !may(who, op.rule.level)) await call(who, op);
    expect(await tableCounts(t.app)).toEqual(before);
    for (const who of ['viewer', 'billing', 'admin'] as const) {
      for (const op of companyOps) if (may(who, op.rule.level) && !LAST.includes(op.key)) await call(who, op);
    }
    for (const key of LAST) {
      const op = companyOps.find((o) => o.key === key);
      if (op) await call('admin', op);
    }
    expect(mismatches).toEqual([]);
  });

});
