import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCookie, auditRows, call, raQuery } from '../support/admin';
import { companyOwner, FREE, loadCatalogue, orderBody, pay, postOrder } from '../support/orders';
import { FAST_SERVERS, queuedJobs, settledIn, until } from '../support/servers';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
let admin: string;
let owner: Awaited<ReturnType<typeof companyOwner>>;
let running: string;
let broken: string;

// A minute of grace: a deletion is scheduled, not done, so it can be cancelled again.
beforeAll(async () => {
  t = await createTestApp({ ...FAST_SERVERS, DELETION_GRACE_SECONDS: '60', MOCK_CLOUD_FAILURE_RATE: '1', MOCK_CLOUD_FAILING_CALLS: 'createMachine', TASK_MAX_ATTEMPTS: '1' });
  admin = await adminCookie(t.app);
  const cat = await loadCatalogue(t.app);
  owner = await companyOwner(t.app, 'actions-owner@example.com');
  broken = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Broken Server' }))).json().payload._id as string;
  await settledIn(t.app, owner.cookie, broken, 'error_initializing');
  t.app.config.MOCK_CLOUD_FAILURE_RATE = 0;
  // Paid, with the custom-domain option: the domain actions below need it.
  const planConfig = { region: cat.region('us-central1'), size: cat.size('mau_500'), features: [cat.feature('domain.custom'), cat.feature('retention.6m'), cat.feature('backup.daily')] };
  running = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { name: 'Healthy Server', planConfig }))).json().payload._id as string;
  await pay(t.app, owner.cookie, running);
  await settledIn(t.app, owner.cookie, running, 'running');
});
afterAll(() => t.close());

const act = (id: string, action: string, cookie = admin) => call(t.app, 'POST', `/admin/deployments/${id}/${action}`, cookie, {});
const page = async (id: string) => (await call(t.app, 'GET', `/admin/deployments/${id}`, admin)).json().payload;

describe("a platform admin runs the customer's server actions", () => {
  it('restarts a server of a company the admin is not in: the task runs, the audit row names the admin', async () => {
    const res = await act(running, 'restart');
    expect(res.statusCode).toBe(200);
    const answer = res.json().payload;
    expect(answer).toMatchObject({ _id: running, companyName: 'Company of actions-owner' });
    expect(answer.tasks[0]).toMatchObject({ type: 'restart', requestedBy: 'root@example.com' });
    const [audit] = await auditRows(t.app, 'deployment.restart');
    expect(audit).toMatchObject({ actor_email: 'root@example.com', target_type: 'deployment', target_id: running, company_id: owner.companyId, after: { taskId: answer.tasks[0]._id, asPlatformAdmin: true } });
    await until(async () => ((await page(running)).tasks[0].status === 'completed' ? true : null), 30_000, 'the restart to complete');
    expect((await page(running)).status).toBe('running');
  });

  it('health-checks and unlocks users through the same rules', async () => {
    for (const [action, type] of [
      ['health-check', 'health_check'],
      ['unlock-users', 'unlock_users'],
    ] as const) {
      const res = await act(running, action);
      expect(res.json().payload.tasks[0]).toMatchObject({ type });
      await until(async () => ((await page(running)).tasks[0].status === 'completed' ? true : null), 30_000, `${action} to complete`);
    }
    expect((await auditRows(t.app, 'deployment.healthCheck')).map((r) => r.actor_email)).toEqual(['root@example.com']);
  });

  it('schedules a deletion and cancels it; a second deletion answers 409 and changes nothing', async () => {
    const del = await act(running, 'delete');
    expect(del.statusCode).toBe(200);
    const deletingOn = del.json().payload.terminationScheduledAt as string;
    expect(deletingOn).toEqual(expect.any(String));
    // The admin list and its export say what the customer's screens say: no "Active" once billing stops.
    const row = (await call(t.app, 'GET', `/admin/deployments?${raQuery({ filter: { q: 'Healthy' } })}`, admin)).json().payload[0];
    expect(row).toMatchObject({ _id: running, subscriptionStatus: 'active', terminationScheduledAt: deletingOn, scheduledChange: expect.objectContaining({ action: 'cancel' }) });
    const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(new Date(deletingOn));
    const csv = await call(t.app, 'GET', `/admin/deployments/export?format=csv&${raQuery({ filter: { q: 'Healthy' } })}`, admin);
    expect(csv.body).toContain(`,"Deleting on ${day}; no further charge",`);
    expect(csv.body).not.toContain(',Active,');
    const before = await tableCounts(t.app);
    const again = await act(running, 'delete');
    expect([again.statusCode, again.json().code]).toEqual([409, 'TERMINATION_ALREADY_SCHEDULED']);
    expect(await tableCounts(t.app)).toEqual(before);
    const cancel = await act(running, 'cancel-termination');
    expect(cancel.json().payload.terminationScheduledAt).toBeNull();
    const resumed = await call(t.app, 'GET', `/admin/deployments/export?format=csv&${raQuery({ filter: { q: 'Healthy' } })}`, admin);
    expect(resumed.body).toContain(',Active,');
    expect(await auditRows(t.app, 'deployment.cancelTermination')).toEqual([expect.objectContaining({ actor_email: 'root@example.com', after: { terminationScheduledAt: null, asPlatformAdmin: true } })]);
  });

  it('refuses an action that does not fit the state with the customer’s 409, writing nothing', async () => {
    const before = await tableCounts(t.app);
    const jobs = await queuedJobs(t.app);
    const restart = await act(broken, 'restart');
    expect([restart.statusCode, restart.json().code]).toEqual([409, 'DEPLOYMENT_STATE_CONFLICT']);
    const cancel = await act(broken, 'cancel-termination');
    expect([cancel.statusCode, cancel.json().code]).toEqual([409, 'TERMINATION_NOT_SCHEDULED']);
    const restore = await act(running, 'restore');
    expect([restore.statusCode, restore.json().code]).toEqual([409, 'NOTHING_TO_RESTORE']);
    const domain = await act(running, 'verify-domain');
    expect([domain.statusCode, domain.json().code]).toEqual([409, 'DOMAIN_NOT_SET']);
    expect(await tableCounts(t.app)).toEqual(before);
    expect(await queuedJobs(t.app)).toBe(jobs);
  });

  it("sets and drops a custom domain and its certificate with the customer's body; a bad domain is refused, writing nothing", async () => {
    const domainAct = (body: Record<string, unknown>) => call(t.app, 'POST', `/admin/deployments/${running}/update-domain`, admin, body);
    const before = await tableCounts(t.app);
    const bad = await domainAct({ domain: 'not a domain' });
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'DOMAIN_INVALID']);
    expect(await tableCounts(t.app)).toEqual(before);

    const set = await domainAct({ domain: 'Support.Example.com' });
    expect(set.statusCode).toBe(200);
    expect(set.json().payload.tasks[0]).toMatchObject({ type: 'update_domain', requestedBy: 'root@example.com' });
    expect(set.json().payload.domain).toMatchObject({ name: 'support.example.com', custom: true, verified: false });
    expect(await auditRows(t.app, 'deployment.updateDomain')).toEqual([
      expect.objectContaining({ actor_email: 'root@example.com', before: { domain: null, ssl: 'active' }, after: expect.objectContaining({ domain: 'support.example.com', ssl: true, asPlatformAdmin: true }) }),
    ]);
    await until(async () => ((await page(running)).tasks[0].status === 'completed' ? true : null), 30_000, 'the domain update to complete');

    const back = await domainAct({ domain: null, removeSSL: true });
    expect(back.json().payload.domain).toMatchObject({ custom: false, ssl: 'none' });
    await until(async () => ((await page(running)).tasks[0].status === 'completed' ? true : null), 30_000, 'the second domain update to complete');
    expect((await page(running)).domain).toMatchObject({ custom: false, ssl: 'none' });
  });

  it('answers 404 for an unknown server and 400 for an unknown action', async () => {
    expect((await act('00000000-0000-4000-8000-000000000000', 'restart')).json().code).toBe('DEPLOYMENT_NOT_FOUND');
    expect((await act('nope', 'restart')).statusCode).toBe(404);
    expect((await act(running, 'explode')).statusCode).toBe(400);
  });

  it("refuses the company's own admin on the admin route (403), changing nothing", async () => {
    const before = await tableCounts(t.app);
    const res = await act(running, 'restart', owner.cookie);
    expect([res.statusCode, res.json().code]).toEqual([403, 'FORBIDDEN']);
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it("force-retries the server's failed task from its page: the server runs", async () => {
    const failed = (await page(broken)).tasks[0];
    expect(failed).toMatchObject({ type: 'provision', status: 'failed' });
    const retry = await call(t.app, 'POST', `/admin/deploymentTasks/${failed._id}/retry`, admin, {});
    expect(retry.statusCode).toBe(200);
    await settledIn(t.app, owner.cookie, broken, 'running');
  });
});

describe('a restore from a backup, run by a platform admin', () => {
  it('restores the backup the body names; an unknown backup answers 404 and changes nothing', async () => {
    await t.app.worker?.scheduled['nightly-backups']();
    const backup = await until(async () => (await page(running)).backups.find((b: { status: string }) => b.status === 'completed') as { _id: string } | undefined, 30_000, 'a nightly backup');
    // The backup rows are done before their tasks write their last timeline events, and the night backs up
    // both servers: wait for every task to finish.
    await until(
      async () => ((await t.app.database.rows<{ n: number }>("select count(*)::int as n from deployment_tasks where status in ('queued', 'running')"))[0]?.n === 0 ? true : null),
      30_000,
      'the backup tasks to finish',
    );
    const before = await tableCounts(t.app);
    const unknown = await call(t.app, 'POST', `/admin/deployments/${running}/restore`, admin, { backupId: '00000000-0000-4000-8000-000000000000' });
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'BACKUP_NOT_FOUND']);
    expect(await tableCounts(t.app)).toEqual(before);
    const res = await call(t.app, 'POST', `/admin/deployments/${running}/restore`, admin, { backupId: backup._id });
    expect(res.json().payload.tasks[0]).toMatchObject({ type: 'restore' });
    expect(await auditRows(t.app, 'deployment.restore')).toEqual([expect.objectContaining({ actor_email: 'root@example.com', after: expect.objectContaining({ backupId: backup._id, asPlatformAdmin: true }) })]);
    await settledIn(t.app, owner.cookie, running, 'running');
  });
});

describe("a task's assignee", () => {
  it('is kept when a worker claims the task: the worker is noted apart, and the lists show the admin', async () => {
    const [root] = await t.app.database.rows<{ id: string }>("select id from users where email = 'root@example.com'");
    // A queued task assigned to the admin before any worker took it; its job then wakes the worker.
    const [task] = await t.app.database.rows<{ id: string }>(`insert into deployment_tasks (deployment_id, type) values ('${running}', 'health_check') returning id`);
    const assign = await call(t.app, 'PUT', `/admin/deploymentTasks/${task?.id}`, admin, { assigneeId: root?.id });
    expect(assign.json().payload).toMatchObject({ assigneeId: root?.id, assigneeEmail: 'root@example.com', claimedBy: null });
    await t.app.queue.send(t.app.database.db, { deploymentId: running, taskId: task?.id ?? '' });
    const done = await until(async () => {
      const r = (await call(t.app, 'GET', `/admin/deploymentTasks/${task?.id}`, admin)).json().payload;
      return r.status === 'completed' ? r : null;
    }, 30_000, 'the assigned task to complete');
    expect(done).toMatchObject({ assigneeId: root?.id, assigneeEmail: 'root@example.com', claimedBy: expect.any(String) });
    // The customer's own reads of the server's tasks name neither the admin nor the worker.
    const customerView = (await call(t.app, 'GET', `/deployments/events?_id=${running}`, owner.cookie)).body;
    expect(customerView).toContain(task?.id);
    expect(customerView).not.toContain(root?.id);
    expect(customerView).not.toContain(done.claimedBy);
    const row = (await call(t.app, 'GET', `/admin/deploymentTasks?${raQuery({ filter: { q: 'root@example' } })}`, admin)).json().payload;
    expect(row).toEqual([expect.objectContaining({ _id: task?.id, assigneeEmail: 'root@example.com' })]);
    const csv = await call(t.app, 'GET', `/admin/deploymentTasks/export?format=csv&${raQuery({ filter: { q: 'root@example' } })}`, admin);
    expect(csv.body.split('\n')[0]).toBe('ID,Created,Status,Type,Server,Company,Attempts,Assignee,Worker,Error');
    expect(csv.body).toContain('root@example.com');
    // Status and type are written as words, as the admin screen shows them.
    expect(csv.body).toContain(',Completed,Health check,Healthy Server,');
  });
});

describe('a server without a subscription row', () => {
  it('opens on the admin page and in the list, with no billing', async () => {
    await t.app.database.rows(`delete from subscriptions where deployment_id = '${running}'`);
    const res = await call(t.app, 'GET', `/admin/deployments/${running}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ _id: running, name: 'Healthy Server', billing: null, subscriptionStatus: null });
    const list = await call(t.app, 'GET', `/admin/deployments?${raQuery({ filter: { q: 'Healthy' } })}`, admin);
    expect(list.json().payload).toEqual([expect.objectContaining({ _id: running, subscriptionStatus: null })]);
    // The admin's actions work on it too.
    expect((await act(running, 'health-check')).statusCode).toBe(200);
  });
});
