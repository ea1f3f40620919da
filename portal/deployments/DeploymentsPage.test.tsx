// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deploymentPageSearch, type DeploymentPageQuery, type DeploymentPopulated, type DeploymentView } from '../../dataProvider/deployments';
import { selection } from '../../src/companySelection';
import { session } from '../../src/session';
import { errorReply, mockRoutes, okReply, type ApiRoutes } from '../../src/testing/fetchMock';
import { currentLocation, en, renderPage, testUser } from '../../src/testing/renderPage';
import { DialogHost } from '../../src/ui/dialog/DialogHost';
import { closeDialog, getDialogs } from '../../src/ui/dialog/dialogStore';
import { clearToasts, getToasts } from '../../src/ui/toast/toastStore';
import DeploymentsPage from './DeploymentsPage';
import { testServer } from './testServers';

const user = { ...testUser, emailVerified: true, onboarding: null, companies: [{ _id: 'c-acme', name: 'Acme' }] };
const company = (role: 'admin' | 'viewer') => ({ _id: 'c-acme', name: 'Acme', size: null, logo: null, billingCountry: null, createdAt: '2026-01-01T00:00:00.000Z', role, projects: [{ _id: 'p-1', name: 'Default project' }] });
const timeline = {
  tasks: [],
  events: [
    { _id: 'e-2', deploymentId: 'd-1', at: '2026-11-20T10:05:00.000Z', kind: 'status', fromStatus: 'initializing', toStatus: 'running', taskId: 't-1', taskType: 'provision', message: null, actorEmail: null },
    { _id: 'e-1', deploymentId: 'd-1', at: '2026-11-20T10:00:00.000Z', kind: 'task_queued', fromStatus: null, toStatus: null, taskId: 't-1', taskType: 'provision', message: null, actorEmail: 'ada@example.com' },
  ],
};
const backups = [{ _id: 'b-1', deploymentId: 'd-1', kind: 'nightly', status: 'completed', sizeBytes: 52_000_000, createdAt: '2026-11-19T03:00:00.000Z', completedAt: '2026-11-19T03:01:00.000Z' }];

const healthChecks = [
  { _id: 'h-2', deploymentId: 'd-1', taskId: null, healthy: false, reason: 'ingestion answered 503 for 3 checks', checkedAt: '2026-11-20T12:00:00.000Z', probes: [{ name: 'sdk', ok: false, latencyMs: 14.2, detail: 'ingestion answered 503' }, { name: 'read', ok: true, latencyMs: 2.4, detail: null }, { name: 'jobs', ok: true, latencyMs: 1.1, detail: null }] },
  { _id: 'h-1', deploymentId: 'd-1', taskId: 't-1', healthy: true, reason: null, checkedAt: '2026-11-20T10:05:00.000Z', probes: [{ name: 'sdk', ok: true, latencyMs: 12, detail: null }, { name: 'read', ok: true, latencyMs: 2, detail: null }, { name: 'jobs', ok: true, latencyMs: 1, detail: null }] },
];

/** What the edge serves for the server's address (a handshake with it, server side). */
const certificate = { state: 'issued', domain: 'shop-d1.servers.example', issuer: "Let's Encrypt", validFrom: '2026-11-01T00:00:00.000Z', validTo: '2027-01-30T00:00:00.000Z', checkedAt: '2026-11-20T12:00:00.000Z' };

let server: DeploymentPopulated;

function serve(extra: ApiRoutes = {}, role: 'admin' | 'viewer' = 'admin') {
  return mockRoutes({
    'GET /auth/me': okReply(user),
    'GET /companies/c-acme': okReply(company(role)),
    'GET /deployments/d-1/populated': () => okReply(server),
    'GET /deployments/events?_id=d-1': okReply(timeline),
    'GET /deployments/d-1/backups': okReply(backups),
    'GET /deployments/d-1/health-checks': okReply(healthChecks),
    'GET /deployments/d-1/certificate': okReply(certificate),
    'GET /plans/configurables?providerCode=gcp': okReply({ regions: [], sizes: [], features: [], providers: [] }),
    'GET /plangroups/company/c-acme/plans': okReply([]),
    ...extra,
  });
}

const task = (type: 'restart' | 'health_check' | 'restore', status: 'queued' | 'running' | 'failed') => ({ _id: `t-${type}`, type, status, progress: status === 'running' ? 50 : 0, lastError: status === 'failed' ? 'provider said no' : null, createdAt: '2026-11-20T11:00:00.000Z', finishedAt: null });
const fullTask = (type: 'restart') => ({ ...task(type, 'queued'), deploymentId: 'd-1', attempts: 0, steps: [], requestedBy: 'u1', startedAt: null, updatedAt: '2026-11-20T11:00:00.000Z' });

beforeEach(async () => {
  localStorage.clear();
  server = testServer();
  serve();
  await session.refresh();
  selection.select('c-acme');
});
afterEach(() => {
  cleanup();
  act(() => {
    for (const d of getDialogs()) closeDialog(d.id, false);
  });
  session.end();
  clearToasts();
  vi.unstubAllGlobals();
});

const open = (entry = '/deployments/d-1') =>
  renderPage(
    <>
      <DeploymentsPage />
      <DialogHost />
    </>,
    entry,
    '/deployments/*',
  );

describe('a server page', () => {
  it('shows status, health, plan and options with Edit, the domain with SSL, backups and the timeline', async () => {
    open();
    expect(await screen.findByRole('heading', { name: 'Shop analytics' })).toBeTruthy();
    const status = screen.getByTestId('status-panel');
    expect(within(status).getByTestId('deployment-status').textContent).toBe(en('servers.status.running'));
    expect(within(status).getByTestId('health-state').textContent).toContain(en('deployment.health.healthy'));
    const plan = screen.getByTestId('plan-panel');
    expect(plan.textContent).toContain('Starter');
    expect(plan.textContent).toContain('Daily backup');
    expect((await within(plan).findByRole('link', { name: en('deployment.edit') })).getAttribute('href')).toBe('/server-builder/d-1/choose-plan');
    // The certificate the edge really serves, not the server's SSL wish.
    await waitFor(() => expect(screen.getByTestId('certificate-state').dataset.state).toBe('issued'));
    expect(screen.getByTestId('certificate-state').textContent).toBe(en('deployment.domain.certificate.state.issued'));
    expect(screen.getByTestId('certificate-detail').textContent).toBe(en('deployment.domain.certificate.detail.issued', { issuer: "Let's Encrypt", date: 'Jan 30, 2027' }));
    expect(await screen.findByTestId('backup')).toBeTruthy();
    const events = await screen.findAllByTestId('timeline-event');
    expect(events[0]?.textContent).toContain(en('deployment.timeline.kind.status', { from: en('servers.status.initializing'), to: en('servers.status.running') }));
    // The last health checks: the reason of a failed one, and each probe's latency.
    const checks = await screen.findAllByTestId('health-check');
    expect(checks.map((c) => c.dataset.healthy)).toEqual(['false', 'true']);
    expect(within(checks[0] as HTMLElement).getByTestId('health-reason').textContent).toBe('ingestion answered 503 for 3 checks');
    expect(within(checks[0] as HTMLElement).getAllByTestId('health-probe').map((p) => p.textContent)).toEqual([
      `${en('deployment.healthChecks.probe.sdk')} ${en('deployment.healthChecks.latency', { ms: '14' })} · ${en('deployment.healthChecks.failed')}`,
      `${en('deployment.healthChecks.probe.read')} ${en('deployment.healthChecks.latency', { ms: '2.4' })}`,
      `${en('deployment.healthChecks.probe.jobs')} ${en('deployment.healthChecks.latency', { ms: '1.1' })}`,
    ]);
  });

  it('restarts after confirmation and shows the task with its progress', async () => {
    const api = serve({ 'POST /deployments/d-1/restart': () => {
        server = { ...server, status: 'restarting', latestTask: task('restart', 'running') };
        return okReply({ deployment: server, task: fullTask('restart') });
      },
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: en('deployment.restart') }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain(en('deployment.restartTitle', { name: 'Shop analytics' }));
    fireEvent.click(within(dialog).getByRole('button', { name: en('deployment.restart') }));
    await waitFor(() => expect(api.callsTo('POST', '/api/v1/deployments/d-1/restart')).toHaveLength(1));
    expect((await screen.findAllByTestId('task-progress'))[0]?.textContent).toContain(en('servers.working', { task: en('servers.task.restart'), progress: 50 }));
    expect(getToasts().map((t) => t.text)).toContain(en('deployment.queued', { task: en('servers.task.restart') }));
  });

  it('shows the server refusal (409) as it is, changing nothing on the page', async () => {
    serve({ 'POST /deployments/d-1/health-check': errorReply(409, 'DEPLOYMENT_BUSY', 'This server is busy (Restart). Please wait until it is done.') });
    open();
    fireEvent.click(await screen.findByRole('button', { name: en('deployment.healthCheck') }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: en('deployment.healthCheck') }));
    await waitFor(() => expect(getToasts().map((t) => t.text)).toContain('This server is busy (Restart). Please wait until it is done.'));
    expect(screen.getByTestId('status-panel').textContent).toContain(en('servers.status.running'));
  });

  it('deletes with the grace period told, then offers to cancel the scheduled deletion', async () => {
    const scheduled = { ...server, terminationScheduledAt: '2026-11-27T10:00:00.000Z' };
    serve({ 'DELETE /deployments/d-1': () => okReply({ deployment: scheduled, task: null }) });
    open();
    fireEvent.click(await screen.findByRole('button', { name: en('deployment.delete') }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain(en('deployment.deleteTitle', { name: 'Shop analytics' }));
    fireEvent.click(within(dialog).getByRole('button', { name: en('deployment.delete') }));
    expect(await screen.findByTestId('termination-notice')).toBeTruthy();
    expect(screen.getByRole('button', { name: en('deployment.cancelTermination') })).toBeTruthy();
    expect(screen.queryByRole('button', { name: en('deployment.delete') })).toBeNull();
  });

  it("shows an error status with the spec's message, and a failed health check's 'contact support'", async () => {
    server = testServer({ status: 'error_restoring' });
    open();
    expect((await screen.findByTestId('server-problem')).textContent).toContain(en('servers.errorMessage.error_restoring'));
    cleanup();
    server = testServer({ latestTask: task('health_check', 'failed') });
    open();
    expect((await screen.findByTestId('server-problem')).textContent).toContain('Health check failed. Please contact support.');
  });

  it('offers to restore a deleted server within its window', async () => {
    server = testServer({ status: 'deleted', restorableUntil: '2026-12-20T10:00:00.000Z' });
    open();
    expect(await screen.findByTestId('restorable-notice')).toBeTruthy();
    expect(((await screen.findByRole('button', { name: en('deployment.restore') })) as HTMLButtonElement).disabled).toBe(false);
  });

  it('loads the MAU chart only when asked', async () => {
    server = testServer({ mauHistory: [{ used: 300, startsAt: '2026-10-01T00:00:00.000Z', endsAt: '2026-11-01T00:00:00.000Z', subscriptionId: null }] });
    open();
    fireEvent.click(await screen.findByRole('button', { name: en('deployment.mau.show') }));
    expect(await screen.findByTestId('mau-chart', {}, { timeout: 5000 })).toBeTruthy();
  });

  it('offers the upgrade, not a custom domain, when the server’s options include only the hosted subdomain', async () => {
    server = testServer({ features: [{ _id: 'f-d', code: 'domain.default', name: 'Hosted subdomain', type: 'domain' }] });
    open();
    const panel = await screen.findByTestId('domain-panel');
    expect(await within(panel).findByText(en('deployment.domain.notInPlan'))).toBeTruthy();
    expect(within(panel).getByRole('link', { name: en('deployment.domain.upgrade') }).getAttribute('href')).toBe('/server-builder/d-1/choose-plan');
    expect(within(panel).queryByRole('button', { name: en('deployment.domain.set') })).toBeNull();
    expect(within(panel).queryByLabelText(en('deployment.domain.field'))).toBeNull();
  });

  it('lets a server with the custom-domain option set one', async () => {
    open();
    const panel = await screen.findByTestId('domain-panel');
    expect(await within(panel).findByRole('button', { name: en('deployment.domain.set') })).toBeTruthy();
    expect(within(panel).queryByTestId('domain-upgrade')).toBeNull();
  });

  it('shows a paid change of plan as waiting for its payment while the server keeps its plan', async () => {
    server = testServer({ plan: { _id: 'p-free', name: 'Free', code: 'v3.mau_500_gcp.base', mau: 500 }, pendingPlan: { _id: 'p-starter', name: 'Starter', code: 'v3.mau_1_000_gcp.base' } });
    open();
    const pending = await screen.findByTestId('pending-plan');
    expect(pending.textContent).toContain(en('deployment.pendingPlan.message', { plan: 'Starter', current: 'Free' }));
    // The link is for admins: it shows once the caller's role (a second request) is in.
    expect((await within(pending).findByRole('link', { name: en('deployment.pendingPlan.pay') })).getAttribute('href')).toBe('/management/billing');
    expect(within(screen.getByTestId('plan-panel')).getAllByText('Free').length).toBeGreaterThan(0);
  });

  it('shows a viewer no actions', async () => {
    serve({}, 'viewer');
    open();
    expect(await screen.findByText(en('deployment.viewerNotice'))).toBeTruthy();
    expect(screen.queryByTestId('actions-panel')).toBeNull();
    expect(screen.queryByRole('button', { name: en('deployment.domain.set') })).toBeNull();
  });

  it('goes to the dashboard when the server cannot be loaded (SPEC §8)', async () => {
    serve({ 'GET /deployments/d-1/populated': errorReply(404, 'DEPLOYMENT_NOT_FOUND', 'This server does not exist.') });
    open();
    await waitFor(() => expect(currentLocation()).toBe('/dashboard'));
    expect(getToasts().map((t) => t.text)).toContain(en('deployment.loadError'));
  });
});

describe('the deployments list', () => {
  const pageOf = (over: Partial<DeploymentPageQuery> = {}) => `GET /deployments?${deploymentPageSearch({ company: 'c-acme', project: 'p-1', page: 1, perPage: 10, sort: { field: 'createdAt', order: 'DESC' }, ...over })}`;
  const paged = (rows: DeploymentView[], first: number, total: number) => ({ ...okReply(rows), headers: { 'content-range': `deployments ${first}-${first + rows.length - 1}/${total}` } });
  const many = (from: number, n: number) => Array.from({ length: n }, (_, i) => testServer({ _id: `d-${from + i}`, name: `Server ${from + i}` }));

  it('lists the project servers in a table whose names open their pages', async () => {
    serve({ [pageOf()]: paged([server], 0, 1) });
    selection.setProjects('c-acme', [{ _id: 'p-1', name: 'Default project' }]);
    open('/deployments');
    const row = await screen.findByTestId('deployment-row');
    expect(within(row).getByRole('link', { name: 'Shop analytics' }).getAttribute('href')).toBe('/deployments/d-1');
    expect(within(row).getByTestId('subscription-status').textContent).toBe(en('deploymentsPage.subscription.active'));
  });

  it('asks the server for one page at a time, sorted and searched there, and shows its total', async () => {
    const api = serve({
      [pageOf()]: paged(many(1, 10), 0, 25),
      [pageOf({ page: 2 })]: paged(many(11, 10), 10, 25),
      [pageOf({ page: 2, sort: { field: 'name', order: 'ASC' } })]: paged(many(1, 10), 0, 25),
      [pageOf({ sort: { field: 'name', order: 'ASC' } })]: paged(many(1, 10), 0, 25),
      [pageOf({ sort: { field: 'name', order: 'ASC' }, filter: { q: 'shop' } })]: paged([server], 0, 1),
    });
    selection.setProjects('c-acme', [{ _id: 'p-1', name: 'Default project' }]);
    open('/deployments');
    // Ten full rows render slowly on a loaded machine: wait longer than the default second.
    const slow = { timeout: 10_000 };
    expect(await screen.findAllByTestId('deployment-row', {}, slow)).toHaveLength(10);
    expect(screen.getByText(en('widgets.table.showing', { start: '1', end: '10', total: '25' }))).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: en('widgets.table.nextPage') }));
    expect(await screen.findByRole('link', { name: 'Server 11' }, slow)).toBeTruthy();
    expect(screen.getByText(en('widgets.table.showing', { start: '11', end: '20', total: '25' }))).toBeTruthy();

    // A new sort starts again on page 1, ordered by the server.
    fireEvent.click(screen.getByRole('button', { name: en('deployment.columns.name') }));
    expect(await screen.findByRole('link', { name: 'Server 1' }, slow)).toBeTruthy();
    expect(api.callsTo('GET', `/api/v1${pageOf({ sort: { field: 'name', order: 'ASC' } }).slice(4)}`)).not.toHaveLength(0);

    fireEvent.change(screen.getByLabelText(en('widgets.table.search')), { target: { value: 'shop' } });
    await waitFor(() => expect(screen.getAllByTestId('deployment-row')).toHaveLength(1), slow);
    expect(screen.getByRole('link', { name: 'Shop analytics' })).toBeTruthy();
    // Columns the server cannot order by offer no sort.
    expect(screen.queryByRole('button', { name: en('deployment.columns.plan') })).toBeNull();
  });
});
