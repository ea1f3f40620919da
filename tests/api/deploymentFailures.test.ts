import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyOwner, FREE, loadCatalogue, orderBody, postOrder } from '../support/orders';
import { api, appliedCalls, FAST_SERVERS, settledIn, timeline } from '../support/servers';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
let owner: Awaited<ReturnType<typeof companyOwner>>;

// mock-cloud refuses every machine creation: provisioning is retried, then fails for good.
beforeAll(async () => {
  t = await createTestApp({ ...FAST_SERVERS, MOCK_CLOUD_FAILURE_RATE: '1', MOCK_CLOUD_FAILING_CALLS: 'createMachine', TASK_MAX_ATTEMPTS: '2' });
  owner = await companyOwner(t.app, 'failures-owner@example.com');
});
afterAll(() => t.close());

describe('a provider failure', () => {
  it("retries while waiting for the provider ('comm error'), then shows 'initializing error' with the reason", async () => {
    const cat = await loadCatalogue(t.app);
    const id = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Unlucky Server' }))).json().payload._id as string;
    const failed = await settledIn(t.app, owner.cookie, id, 'error_initializing');
    expect(failed.latestTask).toMatchObject({ type: 'provision', status: 'failed', lastError: 'mock-cloud: createMachine failed (simulated failure)' });
    expect(failed.url).toBeNull();

    const { tasks, events } = await timeline(t.app, owner.cookie, id);
    expect(tasks).toEqual([expect.objectContaining({ type: 'provision', status: 'failed', attempts: 2 })]);
    expect(events.map((e) => e.kind)).toEqual(expect.arrayContaining(['task_retry', 'task_failed']));
    expect(events.filter((e) => e.kind === 'status').map((e) => e.toStatus).reverse()).toEqual(['initializing', 'comm_error', 'initializing', 'error_initializing']);
    expect(await appliedCalls(t.app, id)).toEqual({});
    const dead = await t.app.database.rows<{ n: number }>(`select count(*)::int as n from pgboss.job where name = 'deployment-tasks-dead' and data->>'deploymentId' = '${id}'`);
    expect(dead[0]?.n).toBe(1);
    // The failed server cannot be restarted: there is no machine.
    const restart = await api(t.app, owner.cookie, 'POST', `/deployments/${id}/restart`, {});
    expect([restart.statusCode, restart.json().code]).toEqual([409, 'DEPLOYMENT_STATE_CONFLICT']);
  });
});
