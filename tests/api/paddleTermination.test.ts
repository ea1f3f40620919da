import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyOwner, loadCatalogue, orderBody, postOrder, STARTER, type Catalogue } from '../support/orders';
import { paddleEvent, paddlePaysOrder, paddleSettings, paddleWebhook, startFakePaddle } from '../support/paddle';
import { api, FAST_SERVERS, settledIn } from '../support/servers';
import { createTestApp, type TestApp } from '../support/testApp';

// A terminated paid server stops being billed at Paddle itself, and a restored one is billed on:
// the termination's stop_billing step and the restore's resume_billing step, in Paddle mode.
let t: TestApp;
let fake: Awaited<ReturnType<typeof startFakePaddle>>;
let cat: Catalogue;
let owner: Awaited<ReturnType<typeof companyOwner>>;

beforeAll(async () => {
  fake = await startFakePaddle();
  t = await createTestApp({ ...FAST_SERVERS, ...paddleSettings(fake.url), DELETION_GRACE_SECONDS: '3600', RESTORE_WINDOW_SECONDS: '3600' });
  cat = await loadCatalogue(t.app);
  owner = await companyOwner(t.app, 'paddle-termination@example.com');
});
afterAll(async () => {
  await t.close();
  fake.close();
});

describe('Paddle mode: termination and restore', () => {
  it('cancels the subscription at the end of the billing period when the server is terminated, and withdraws it on restore', async () => {
    const created = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: STARTER, name: 'Paddle Billed' }))).json().payload;
    const ids = created.provisionSummary.dataToVendor.customData as { deploymentId: string; subscriptionId: string; companyId: string };
    const vendorId = `sub_${ids.subscriptionId.slice(0, 8)}`;
    const subData = (scheduledChange: Record<string, unknown> | null) => ({
      id: vendorId,
      status: 'active',
      customer_id: 'ctm_1',
      current_billing_period: { starts_at: '2030-01-01T00:00:00Z', ends_at: '2030-02-01T00:00:00Z' },
      next_billed_at: scheduledChange ? null : '2030-02-01T00:00:00Z',
      scheduled_change: scheduledChange,
      custom_data: ids,
    });
    for (const res of await paddlePaysOrder(t.app, created, subData(null))) expect(res.json().payload.outcome).toBe('applied');
    await settledIn(t.app, owner.cookie, created._id, 'running');
    const vendorCalls = () => fake.calls.filter((c) => c.url.startsWith(`/subscriptions/${vendorId}`));
    expect(vendorCalls()).toEqual([]);

    await api(t.app, owner.cookie, 'DELETE', `/deployments/${created._id}`);
    await t.app.database.rows(`update deployment_runtime set termination_scheduled_at = now() - interval '1 second' where deployment_id = '${created._id}'`);
    await t.app.worker?.scheduled.terminations();
    await settledIn(t.app, owner.cookie, created._id, 'deleted');
    expect(vendorCalls()).toEqual([{ method: 'POST', url: `/subscriptions/${vendorId}/cancel`, auth: 'Bearer pdl_sdbx_apikey_test', body: { effective_from: 'next_billing_period' } }]);

    // Paddle confirms with subscription.updated carrying the scheduled cancellation.
    const cancel = { action: 'cancel', effective_at: '2030-02-01T00:00:00Z', resume_at: null };
    expect((await paddleWebhook(t.app, paddleEvent('subscription.updated', new Date(Date.now() + 1000), subData(cancel)))).statusCode).toBe(200);
    const billing = async () =>
      ((await api(t.app, owner.cookie, 'GET', `/companies/${owner.companyId}/billing`)).json().payload as { subscriptions: { deploymentId: string; scheduledChange: { action: string } | null }[] }).subscriptions.find((s) => s.deploymentId === created._id);
    expect((await billing())?.scheduledChange).toMatchObject({ action: 'cancel' });

    expect((await api(t.app, owner.cookie, 'POST', `/deployments/${created._id}/restore`, {})).statusCode).toBe(200);
    await settledIn(t.app, owner.cookie, created._id, 'running');
    expect(vendorCalls().slice(1)).toEqual([{ method: 'PATCH', url: `/subscriptions/${vendorId}`, auth: 'Bearer pdl_sdbx_apikey_test', body: { scheduled_change: null } }]);
  });
});
