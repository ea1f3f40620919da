// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { render } from '@testing-library/react';
import { CoreAdminContext, testDataProvider } from 'react-admin';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../src/appI18n';
import { i18n } from '../../src/i18n';
import '../adminI18n';
import { DeploymentList } from './DeploymentList';

const row = (name: string, status: string) => ({
  id: `id-${name}`,
  _id: `id-${name}`,
  name,
  companyId: 'c1',
  companyName: 'Acme',
  status,
  planCode: 'v3.mau_500_gcp.base',
  free: true,
  regionName: 'Iowa',
  subscriptionStatus: 'active',
  terminationScheduledAt: null as string | null,
  scheduledChange: null,
  createdAt: '2026-11-01T10:00:00.000Z',
});

afterEach(() => cleanup());

describe('the admin server list', () => {
  it('shows the servers the API answers and asks again filtered by the chosen status', async () => {
    const getList = vi.fn(async (_resource: string, params: { filter?: { status?: string } }) => {
      const rows = [row('Alpha', 'running'), row('Beta', 'error_initializing')].filter((r) => !params.filter?.status || r.status === params.filter.status);
      return { data: rows, total: rows.length };
    });
    render(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/admin/deployments']}>
          <CoreAdminContext dataProvider={testDataProvider({ getList } as never)}>
            <DeploymentList />
          </CoreAdminContext>
        </MemoryRouter>
      </I18nextProvider>,
    );
    expect(await screen.findByRole('link', { name: 'Alpha' })).toHaveProperty('href', expect.stringContaining('/admin/deployments/id-Alpha'));
    expect(screen.getByRole('link', { name: 'Beta' })).toBeTruthy();
    expect(getList).toHaveBeenCalledWith('admin/deployments', expect.objectContaining({ sort: { field: 'createdAt', order: 'DESC' } }));
    await act(async () => void fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'running' } }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Beta' })).toBeNull());
    expect(getList).toHaveBeenLastCalledWith('admin/deployments', expect.objectContaining({ filter: { status: 'running' } }));
    expect(screen.getByRole('link', { name: 'Alpha' })).toBeTruthy();
  });

  it('asks for the servers over or projected over their MAU tier', async () => {
    const getList = vi.fn(async (_resource: string, params: { filter?: { mau?: string } }) => {
      const rows = params.filter?.mau === 'overOrProjected' ? [row('Busy', 'running')] : [row('Busy', 'running'), row('Calm', 'running')];
      return { data: rows, total: rows.length };
    });
    render(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/admin/deployments']}>
          <CoreAdminContext dataProvider={testDataProvider({ getList } as never)}>
            <DeploymentList />
          </CoreAdminContext>
        </MemoryRouter>
      </I18nextProvider>,
    );
    expect(await screen.findByRole('link', { name: 'Calm' })).toBeTruthy();
    await act(async () => void fireEvent.change(screen.getByLabelText('Monthly active users'), { target: { value: 'overOrProjected' } }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Calm' })).toBeNull(), { timeout: 5000 });
    expect(getList).toHaveBeenLastCalledWith('admin/deployments', expect.objectContaining({ filter: { mau: 'overOrProjected' } }));
    expect(screen.getByRole('option', { name: 'Over or projected over the tier' })).toBeTruthy();
  });

  it('says a server being deleted is billed no further, as the customer sees it, never "Active"', async () => {
    const deleting = { ...row('Leaving', 'running'), terminationScheduledAt: '2026-12-03T10:00:00.000Z' };
    const getList = vi.fn(async () => ({ data: [row('Staying', 'running'), deleting], total: 2 }));
    render(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/admin/deployments']}>
          <CoreAdminContext dataProvider={testDataProvider({ getList } as never)}>
            <DeploymentList />
          </CoreAdminContext>
        </MemoryRouter>
      </I18nextProvider>,
    );
    const leaving = (await screen.findByRole('link', { name: 'Leaving' })).closest('tr');
    const staying = screen.getByRole('link', { name: 'Staying' }).closest('tr');
    expect(leaving?.textContent).toContain('Deleting on Dec 3, 2026; no further charge');
    expect(leaving?.textContent).not.toContain('Active');
    expect(staying?.textContent).toContain('Active');
  });
});
