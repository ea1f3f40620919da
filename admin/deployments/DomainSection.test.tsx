// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminDeploymentDetail } from '../../src/domain/admin/deployments';
import '../../src/appI18n';
import { i18n } from '../../src/i18n';
import '../../src/serversI18n';
import { renderInAdmin } from '../testing';
import { DomainSection } from './DomainSection';

// The confirmation is the dialog store's: answered "yes" here, its own tests cover the dialog.
const confirm = vi.hoisted(() => vi.fn(async () => true));
vi.mock('../../src/ui/dialog/dialogStore', () => ({ confirm }));

const server = (custom: boolean) =>
  ({
    id: 'd-1',
    _id: 'd-1',
    name: 'Alpha',
    status: 'running',
    terminationScheduledAt: null,
    domain: { name: custom ? 'stats.example.com' : 'alpha-d1.servers.example', custom, ssl: 'active', verified: false, verifiedAt: null, verification: [], check: null },
    // The options include a custom domain: the panel offers setting one.
    features: [{ _id: 'f-c', code: 'domain.custom', name: 'Custom domain', type: 'domain' }],
    tasks: [],
  }) as unknown as AdminDeploymentDetail & { id: string };

function renderSection(deployment: AdminDeploymentDetail & { id: string }) {
  const recordAction = vi.fn(async () => ({ data: { ...deployment, tasks: [{ _id: 't-9', type: 'update_domain', status: 'queued' }] } }));
  const onDone = vi.fn();
  renderInAdmin(<DomainSection deployment={deployment} onDone={onDone} />, recordAction);
  return { recordAction, onDone };
}

afterEach(() => {
  cleanup();
  confirm.mockClear();
});

describe("the admin server page's domain", () => {
  it("removes the certificate through the admin route with the customer's body, after the customer's confirmation", async () => {
    const { recordAction, onDone } = renderSection(server(true));
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: i18n.t('deployment.domain.removeSsl') })));
    expect(confirm).toHaveBeenCalledWith(expect.objectContaining({ type: 'danger', title: i18n.t('deployment.domain.removeSslTitle', { domain: 'stats.example.com' }) }));
    await waitFor(() => expect(recordAction).toHaveBeenCalledWith('admin/deployments', { id: 'd-1', action: 'update-domain', data: { domain: 'stats.example.com', removeSSL: true } }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
  });

  it('verifies a custom domain and goes back to the default one', async () => {
    const { recordAction } = renderSection(server(true));
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: i18n.t('deployment.domain.verify') })));
    await waitFor(() => expect(recordAction).toHaveBeenCalledWith('admin/deployments', { id: 'd-1', action: 'verify-domain', data: undefined }));
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: i18n.t('deployment.domain.useDefault') })));
    await waitFor(() => expect(recordAction).toHaveBeenCalledWith('admin/deployments', { id: 'd-1', action: 'update-domain', data: { domain: null } }));
  });
});
