import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCookie, auditRows, call, raQuery } from '../support/admin';
import { companyOwner, FREE, loadCatalogue, orderBody, postOrder } from '../support/orders';
import { FAST_SERVERS, settledIn, until } from '../support/servers';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
let admin: string;
let unlucky: string;
let other: string;
let otherOwner: Awaited<ReturnType<typeof companyOwner>>;

// mock-cloud refuses every machine creation until the test lets it: both orders fail for good.
beforeAll(async () => {
  t = await createTestApp({ ...FAST_SERVERS, MOCK_CLOUD_FAILURE_RATE: '1', MOCK_CLOUD_FAILING_CALLS: 'createMachine', TASK_MAX_ATTEMPTS: '1' });
  admin = await adminCookie(t.app);
  const cat = await loadCatalogue(t.app);
  const owner = await companyOwner(t.app, 'unlucky@example.com');
  otherOwner = await companyOwner(t.app, 'other@example.com');
  unlucky = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Unlucky Server' }))).json().payload._id as string;
  other = (await postOrder(t.app, otherOwner.cookie, orderBody(cat, otherOwner, { planCode: FREE, name: 'Other Server' }))).json().payload._id as string;
  await settledIn(t.app, owner.cookie, unlucky, 'error_initializing');
  await settledIn(t.app, otherOwner.cookie, other, 'error_initializing');
});
afterAll(() => t.close());

const list = (resource: string, query: Record<string, unknown>) => call(t.app, 'GET', `/admin/${resource}?${raQuery(query)}`, admin);
const names = (res: { json(): { payload: { name: string }[] } }) => res.json().payload.map((d) => d.name);
const taskOf = async (deploymentId: string) => (await list('deploymentTasks', { filter: { deploymentId } })).json().payload[0] as { _id: string; status: string };

describe('admin servers', () => {
  it('lists every server of every company: pages, sorts, searches and filters by status', async () => {
    const res = await list('deployments', { sort: ['name', 'ASC'] });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-range']).toBe('deployments 0-1/2');
    expect(names(res)).toEqual(['Other Server', 'Unlucky Server']);
    expect(res.json().payload[1]).toMatchObject({ _id: unlucky, companyName: 'Company of unlucky', status: 'error_initializing', planCode: FREE, free: true, subscriptionStatus: expect.any(String) });
    expect(names(await list('deployments', { sort: ['name', 'DESC'] }))).toEqual(['Unlucky Server', 'Other Server']);
    expect(names(await list('deployments', { sort: ['companyName', 'ASC'], range: [0, 0] }))).toEqual(['Other Server']);
    for (const field of ['status', 'planCode', 'regionName', 'subscriptionStatus', 'createdAt', '_id']) expect((await list('deployments', { sort: [field, 'DESC'] })).statusCode).toBe(200);
    expect(names(await list('deployments', { filter: { q: 'unlucky' } }))).toEqual(['Unlucky Server']);
    expect(names(await list('deployments', { filter: { companyId: otherOwner.companyId } }))).toEqual(['Other Server']);
    expect((await list('deployments', { filter: { status: 'error_initializing' } })).headers['content-range']).toBe('deployments 0-1/2');
    expect((await list('deployments', { filter: { status: 'running' } })).json().payload).toEqual([]);
    expect((await list('deployments', { filter: { status: 'sleeping' } })).statusCode).toBe(400);
    expect((await list('deployments', { sort: ['planConfig', 'ASC'] })).statusCode).toBe(400);
    const csv = await call(t.app, 'GET', `/admin/deployments/export?format=csv&${raQuery({ sort: ['name', 'ASC'] })}`, admin);
    expect(csv.body.trimEnd().split('\n')).toEqual([expect.stringMatching(/^ID,Name,Company,Status,Plan,Region,Subscription,Created$/), expect.stringContaining('Other Server'), expect.stringContaining('Unlucky Server')]);
    // The file reads like the screen: the customer's labels, not the codes.
    expect(csv.body).toContain(',Initialization failed,');
    expect(csv.body).not.toContain('error_initializing');
  });

  it("shows a server's page: the customer's view, its company and its tasks", async () => {
    const res = await call(t.app, 'GET', `/admin/deployments/${unlucky}`, admin);
    expect(res.statusCode).toBe(200);
    const d = res.json().payload;
    expect(d).toMatchObject({ _id: unlucky, name: 'Unlucky Server', companyName: 'Company of unlucky', status: 'error_initializing' });
    expect(d.tasks).toEqual([expect.objectContaining({ type: 'provision', status: 'failed', attempts: 1, lastError: 'mock-cloud: createMachine failed (simulated failure)' })]);
    expect((await call(t.app, 'GET', '/admin/deployments/00000000-0000-4000-8000-000000000000', admin)).statusCode).toBe(404);
    expect((await call(t.app, 'GET', '/admin/deployments/nope', admin)).statusCode).toBe(404);
  });
});

describe('admin task queue', () => {
  it('lists tasks with their server, attempts and error, and shows one with its step log', async () => {
    const res = await list('deploymentTasks', { sort: ['deploymentName', 'ASC'], filter: { status: 'failed', type: 'provision' } });
    expect(res.headers['content-range']).toBe('deploymentTasks 0-1/2');
    expect(res.json().payload.map((r: { deploymentName: string }) => r.deploymentName)).toEqual(['Other Server', 'Unlucky Server']);
    expect(res.json().payload[1]).toMatchObject({ companyName: 'Company of unlucky', status: 'failed', attempts: 1, lastError: expect.stringContaining('createMachine') });
    const task = await taskOf(unlucky);
    const detail = (await call(t.app, 'GET', `/admin/deploymentTasks/${task._id}`, admin)).json().payload;
    expect(detail).toMatchObject({ _id: task._id, deploymentName: 'Unlucky Server', status: 'failed', retriedBy: null, steps: expect.any(Array) });
    expect((await call(t.app, 'GET', '/admin/deploymentTasks/00000000-0000-4000-8000-000000000000', admin)).json().code).toBe('TASK_NOT_FOUND');
  });

  it('refuses what does not fit the task (cancel a failed task, assign to a non-admin), changing nothing', async () => {
    const task = await taskOf(unlucky);
    const before = await tableCounts(t.app);
    const cancel = await call(t.app, 'POST', `/admin/deploymentTasks/${task._id}/cancel`, admin, {});
    expect([cancel.statusCode, cancel.json().code]).toEqual([409, 'TASK_STATE_CONFLICT']);
    const [nonAdmin] = await t.app.database.rows<{ id: string }>("select id from users where email = 'other@example.com'");
    const assign = await call(t.app, 'PUT', `/admin/deploymentTasks/${task._id}`, admin, { assigneeId: nonAdmin?.id });
    expect(assign.statusCode).toBe(400);
    expect(await tableCounts(t.app)).toEqual(before);
    expect((await taskOf(unlucky)).status).toBe('failed');
  });

  it('assigns a task to an admin, audited', async () => {
    const task = await taskOf(other);
    const [root] = await t.app.database.rows<{ id: string }>('select id from users where is_admin limit 1');
    const res = await call(t.app, 'PUT', `/admin/deploymentTasks/${task._id}`, admin, { assigneeId: root?.id });
    expect(res.json().payload.assigneeId).toBe(root?.id);
    expect(await auditRows(t.app, 'task.assign')).toEqual([expect.objectContaining({ target_type: 'task', target_id: task._id, company_id: otherOwner.companyId, after: { assigneeId: root?.id } })]);
  });

  it('retries a failed task: the worker runs it again and the server runs; a second retry or a retry of the new task is refused', async () => {
    t.app.config.MOCK_CLOUD_FAILURE_RATE = 0;
    const failed = await taskOf(unlucky);
    const res = await call(t.app, 'POST', `/admin/deploymentTasks/${failed._id}/retry`, admin, {});
    expect(res.statusCode).toBe(200);
    const retry = res.json().payload;
    expect(retry).toMatchObject({ type: 'provision', deploymentId: unlucky });
    expect(retry._id).not.toBe(failed._id);
    const done = await until(async () => {
      const r = (await call(t.app, 'GET', `/admin/deploymentTasks/${retry._id}`, admin)).json().payload;
      return r.status === 'completed' ? r : null;
    }, 30_000, 'the retried task to complete');
    expect(done.steps.length).toBeGreaterThan(0);
    expect((await call(t.app, 'GET', `/admin/deployments/${unlucky}`, admin)).json().payload).toMatchObject({ status: 'running', url: expect.any(String) });
    expect((await call(t.app, 'GET', `/admin/deploymentTasks/${failed._id}`, admin)).json().payload).toMatchObject({ status: 'failed', retriedBy: retry._id });
    expect(await auditRows(t.app, 'task.retry')).toEqual([expect.objectContaining({ target_id: failed._id, after: { taskId: retry._id, deploymentId: unlucky } })]);

    const before = await tableCounts(t.app);
    const again = await call(t.app, 'POST', `/admin/deploymentTasks/${failed._id}/retry`, admin, {});
    expect([again.statusCode, again.json().code]).toEqual([409, 'TASK_ALREADY_RETRIED']);
    const completed = await call(t.app, 'POST', `/admin/deploymentTasks/${retry._id}/retry`, admin, {});
    expect([completed.statusCode, completed.json().code]).toEqual([409, 'TASK_STATE_CONFLICT']);
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('cancels a queued task, audited; a running one is refused', async () => {
    // Rows without a queue job: the worker never wakes for them, so they stay as written.
    const [queued] = await t.app.database.rows<{ id: string }>(`insert into deployment_tasks (deployment_id, type) values ('${other}', 'health_check') returning id`);
    const res = await call(t.app, 'POST', `/admin/deploymentTasks/${queued?.id}/cancel`, admin, {});
    expect(res.json().payload).toMatchObject({ status: 'canceled' });
    expect(await auditRows(t.app, 'task.cancel')).toEqual([expect.objectContaining({ target_id: queued?.id, before: { status: 'queued' }, after: { status: 'canceled' } })]);

    const [running] = await t.app.database.rows<{ id: string }>(`insert into deployment_tasks (deployment_id, type, status) values ('${other}', 'health_check', 'running') returning id`);
    const before = await tableCounts(t.app);
    const refused = await call(t.app, 'POST', `/admin/deploymentTasks/${running?.id}/cancel`, admin, {});
    expect([refused.statusCode, refused.json().code]).toEqual([409, 'TASK_STATE_CONFLICT']);
    expect((await call(t.app, 'GET', `/admin/deploymentTasks/${running?.id}`, admin)).json().payload.status).toBe('running');
    expect(await tableCounts(t.app)).toEqual(before);
  });
});
