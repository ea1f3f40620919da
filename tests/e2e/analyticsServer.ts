import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';
import { waitForMail } from './mailbox';

export const PASSWORD = 'Tr1cky-Lantern';
export const tokenOf = (link: string) => new URL(link.replace('/#/', '/')).searchParams.get('token') ?? '';

/**
 * A verified company admin, signed in in this page's cookie jar, with a free server ordered
 * through the API and running: a server not yet running has no dashboard (SECURITY.md).
 */
export async function freeServer(page: Page, name: string): Promise<string> {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}@e2e.example.com`;
  expect((await page.request.post('/api/v1/users', { data: { firstName: 'Ada', lastName: 'Lovelace', email, password: PASSWORD } })).status()).toBe(201);
  const mail = await waitForMail(email, 'Verify');
  expect((await page.request.post('/api/v1/auth/verify', { data: { token: tokenOf(mail.link) } })).ok()).toBe(true);
  const company = ((await (await page.request.post('/api/v1/companies?onboarding=1', { data: { name: `${name} Co` } })).json()) as { payload: { _id: string; projects: { _id: string }[] } }).payload;
  const [plans, conf] = await Promise.all([page.request.get('/api/v1/plans/public'), page.request.get('/api/v1/plans/configurables/public/gcp')]);
  const plan = ((await plans.json()) as { payload: { _id: string; code: string }[] }).payload.find((x) => x.code === 'v3.mau_500_gcp.base');
  const c = ((await conf.json()) as { payload: { regions: { _id: string; code: string }[]; features: { _id: string; code: string }[]; sizes: { _id: string; code: string }[] } }).payload;
  const f = (code: string) => c.features.find((x) => x.code === code)?._id ?? '';
  const body = {
    name: `${name} Server`,
    plan: plan?._id,
    paymentCycle: 'month',
    planConfig: { region: c.regions.find((r) => r.code === 'us-central1')?._id, size: c.sizes.find((s) => s.code === 'mau_500')?._id, features: [f('domain.default'), f('retention.6m'), f('backup.daily')] },
    paymentVendor: 'free',
    company: company._id,
    project: company.projects[0]?._id,
    provider: 'gcp',
  };
  const res = await page.request.post('/api/v1/deployments?addProvisionSummary=1', { data: body, headers: { 'idempotency-key': randomUUID() } });
  expect(res.status(), await res.text()).toBe(201);
  const id = ((await res.json()) as { payload: { _id: string } }).payload._id;
  await expect
    .poll(async () => {
      const server = await page.request.get(`/api/v1/deployments/${id}/populated`);
      return server.ok() ? ((await server.json()) as { payload: { status: string } }).payload.status : null;
    }, { timeout: 30_000 })
    .toBe('running');
  return id;
}
