// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { deploymentPageSearch, type DeploymentView } from '../../dataProvider/deployments';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { selection } from '../../src/companySelection';
import { session } from '../../src/session';
import { errorReply, mockRoutes, okReply, type ApiRoutes } from '../../src/testing/fetchMock';
import { en, renderPage, testUser } from '../../src/testing/renderPage';
import { clearToasts, getToasts } from '../../src/ui/toast/toastStore';
import { testServer } from '../deployments/testServers';
import DashboardPage from './DashboardPage';

const user = { ...testUser, emailVerified: true, onboarding: null, companies: [{ _id: 'c-acme', name: 'Acme' }] };
const servers = [testServer(), testServer({ _id: 'd-2', name: 'Blog analytics', flags: { free: true }, status: 'initializing', plan: { _id: 'p-free', name: 'Free', code: 'v3.mau_500_gcp.base', mau: 500 }, mau: { used: 480, limit: 500, forecast: null }, latestTask: { _id: 't-1', type: 'provision', status: 'running', progress: 40, lastError: null, createdAt: '2026-11-20T10:00:00.000Z', finishedAt: null } })];

const pageOf = (page: number) => `GET /deployments?${deploymentPageSearch({ company: 'c-acme', page, perPage: 12 })}`;
const paged = (rows: DeploymentView[], first: number, total: number) => ({ ...okReply(rows), headers: { 'content-range': `deployments ${first}-${first + rows.length - 1}/${total}` } });

function serve(extra: ApiRoutes = {}) {
  return mockRoutes({
    'GET /auth/me': okReply(user),
    [pageOf(1)]: paged(servers, 0, 2),
    'GET /content/announcement': okReply(null),
    'GET /content/welcome': okReply(null),
    'GET /content/resources': okReply(null),
    'GET /plans/configurables?providerCode=gcp': okReply({ regions: [], sizes: [], features: [], providers: [] }),
    'GET /plangroups/company/c-acme/plans': okReply([]),
    ...extra,
  });
}

beforeEach(async () => {
  localStorage.clear();
  serve();
  await session.refresh();
  selection.select('c-acme');
});
afterEach(() => {
  cleanup();
  session.end();
  clearToasts();
  vi.unstubAllGlobals();
});

const open = () => renderPage(<DashboardPage />, '/dashboard');

describe('Dashboard', () => {
  it('shows every server at a glance: status, plan, MAU against the tier, next bill, progress of a running task', async () => {
    open();
    const cards = await screen.findAllByTestId('server-card');
    expect(cards).toHaveLength(2);
    const [paid, free] = cards as [HTMLElement, HTMLElement];
    expect(within(paid).getByTestId('deployment-status').textContent).toBe(en('servers.status.running'));
    expect(paid.textContent).toContain('Starter');
    expect(within(paid).getByTestId('mau-text').textContent).toBe(en('servers.mau', { used: '420', limit: '1,000' }));
    expect(within(paid).getByRole('progressbar', { name: en('servers.mauLabel') }).getAttribute('aria-valuenow')).toBe('42');
    expect(within(paid).getByTestId('next-bill').textContent).toBe(en('servers.nextBillAmount', { amount: `$49 ${en('taxLabel.noCountry')}`, date: 'Dec 1, 2026' }));
    expect(within(free).getByTestId('next-bill').textContent).toBe(en('servers.free'));
    expect(within(free).getByTestId('task-progress').textContent).toContain(en('servers.working', { task: en('servers.task.provision'), progress: 40 }));
    expect(within(paid).getByRole('link', { name: en('servers.open', { name: 'Shop analytics' }) }).getAttribute('href')).toBe('/deployments/d-1');
  });

  it('falls back to the built-in announcement, welcome and resources when the content service has none', async () => {
    open();
    expect((await screen.findByTestId('announcement')).textContent).toContain(en('dashboard.announcementFallback'));
    expect(screen.getByTestId('welcome-block').textContent).toContain(en('dashboard.welcomeTitle', { name: 'Ada' }));
    expect(within(screen.getByTestId('resources-block')).getAllByRole('link')).toHaveLength(3);
  });

  it("shows the content service's blocks, with the 30-minute call booking link", async () => {
    serve({
      'GET /content/announcement': okReply({ title: 'Maintenance', message: 'Sunday 02:00 UTC.' }),
      'GET /content/welcome': okReply({ message: 'Talk to us.', bookingUrl: 'https://book.example/30min' }),
      'GET /content/resources': okReply({ items: [{ title: 'Guide', description: 'Start here', url: 'https://docs.example/guide' }] }),
    });
    open();
    expect((await screen.findByTestId('announcement')).textContent).toContain('Sunday 02:00 UTC.');
    const booking = await screen.findByRole('link', { name: en('dashboard.bookCall') });
    expect(booking.getAttribute('href')).toBe('https://book.example/30min');
    expect(await screen.findByRole('link', { name: 'Guide' })).toBeTruthy();
  });

  it('says so when plans or configurables cannot be loaded on entering (SPEC §8)', async () => {
    serve({ 'GET /plangroups/company/c-acme/plans': errorReply(500, 'INTERNAL', 'x'), 'GET /plans/configurables?providerCode=gcp': errorReply(500, 'INTERNAL', 'x') });
    open();
    await screen.findAllByTestId('server-card');
    const texts = getToasts().map((t) => t.text);
    expect(texts).toContain(en('errors.plansLoad'));
    expect(texts).toContain(en('errors.configurablesLoad'));
  });

  it('shows twelve server cards a page, with the total and next/previous asked of the server', async () => {
    const many = (from: number, n: number) => Array.from({ length: n }, (_, i) => testServer({ _id: `d-${from + i}`, name: `Server ${from + i}` }));
    serve({ [pageOf(1)]: paged(many(1, 12), 0, 14), [pageOf(2)]: paged(many(13, 2), 12, 14) });
    open();
    // Twelve cards render slowly on a loaded machine: wait longer than the default second.
    expect(await screen.findAllByTestId('server-card', {}, { timeout: 10_000 })).toHaveLength(12);
    expect(screen.getByTestId('server-cards-range').textContent).toBe(en('widgets.table.showing', { start: '1', end: '12', total: '14' }));
    expect((screen.getByRole('button', { name: en('widgets.table.previousPage') }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: en('widgets.table.nextPage') }));
    expect(await screen.findByRole('link', { name: en('servers.open', { name: 'Server 14' }) }, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getAllByTestId('server-card')).toHaveLength(2);
    expect(screen.getByTestId('server-cards-range').textContent).toBe(en('widgets.table.showing', { start: '13', end: '14', total: '14' }));
    expect((screen.getByRole('button', { name: en('widgets.table.nextPage') }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows no pager when every server fits on one page', async () => {
    open();
    expect(await screen.findAllByTestId('server-card')).toHaveLength(2);
    expect(screen.queryByTestId('server-cards-range')).toBeNull();
  });
});
