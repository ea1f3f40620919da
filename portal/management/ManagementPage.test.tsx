// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authApi } from '../../dataProvider/auth';
import { companiesApi } from '../../dataProvider/companies';
import { projectsApi } from '../../dataProvider/projects';
import { ApiError } from '../../dataProvider/httpClient';
import { LIMITS } from '../../src/domain/constants';
import type { CompanyDto, TeamDto } from '../../src/domain/companies/answers';
import { ProjectScope } from '../../src/ProjectScope';
import { selection } from '../../src/companySelection';
import { session } from '../../src/session';
import { currentLocation, en, fieldError, renderPage, testUser, typeInto } from '../../src/testing/renderPage';
import { DialogHost } from '../../src/ui/dialog/DialogHost';
import { closeDialog, getDialogs } from '../../src/ui/dialog/dialogStore';
import { clearToasts, getToasts } from '../../src/ui/toast/toastStore';
import { countryOptions } from './countries';
import { logoProblem } from './LogoField';
import ManagementPage from './ManagementPage';

vi.mock('../../dataProvider/auth', () => ({ authApi: { me: vi.fn(), signOut: vi.fn() } }));
vi.mock('../../dataProvider/companies', () => ({
  companiesApi: {
    get: vi.fn(),
    team: vi.fn(),
    update: vi.fn(),
    invite: vi.fn(),
    removeMember: vi.fn(),
    cancelInvitation: vi.fn(),
    requestDeletionCode: vi.fn(),
    remove: vi.fn(),
  },
}));
vi.mock('../../dataProvider/projects', () => ({ projectsApi: { list: vi.fn(), create: vi.fn(), rename: vi.fn(), remove: vi.fn() } }));
const auth = vi.mocked(authApi);
const projects = vi.mocked(projectsApi);
const api = vi.mocked(companiesApi);

const user = {
  ...testUser,
  _id: 'u-ada',
  emailVerified: true,
  onboarding: null,
  companies: [
    { _id: 'c-acme', name: 'Acme', role: 'admin' as const },
    { _id: 'c-beta', name: 'Beta', role: 'admin' as const },
  ],
};

const acme: CompanyDto = {
  _id: 'c-acme',
  name: 'Acme',
  size: '11-50',
  logo: null,
  billingCountry: 'FR',
  taxId: null,
  billingAddress: null,
  billingPostalCode: null,
  billingCity: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  role: 'admin',
  projects: [{ _id: 'p-acme', name: 'Default project' }],
};
const beta: CompanyDto = { ...acme, _id: 'c-beta', name: 'Beta', size: null, billingCountry: null, logo: '/api/v1/files/logo-1', role: 'viewer', projects: [{ _id: 'p-beta', name: 'Default project' }] };
const team: TeamDto = {
  users: [
    { _id: 'u-ada', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', role: 'admin', status: 'active' },
    { _id: 'u-bob', firstName: 'Bob', lastName: 'Stone', email: 'bob@example.com', role: 'viewer', status: 'active' },
  ],
  invitations: [{ _id: 'i-1', email: 'new@example.com', role: 'viewer', status: 'pending', createdAt: '2026-03-04T10:00:00.000Z' }],
};

function open(entry = '/management/company', path = '/management/*') {
  return renderPage(
    <>
      <ManagementPage />
      <DialogHost />
    </>,
    entry,
    path,
  );
}

beforeEach(async () => {
  localStorage.clear();
  auth.me.mockResolvedValue(user);
  api.get.mockImplementation(async (id) => (id === 'c-beta' ? beta : acme));
  api.team.mockResolvedValue(team);
  projects.list.mockResolvedValue([{ _id: 'p-acme', name: 'Mobile apps', servers: 0, createdAt: '2026-01-01T00:00:00.000Z' }]);
  await session.refresh();
  selection.select('c-acme');
  URL.createObjectURL = vi.fn(() => 'blob:preview');
  URL.revokeObjectURL = vi.fn();
});

afterEach(() => {
  cleanup();
  act(() => {
    for (const d of getDialogs()) closeDialog(d.id, false);
  });
  session.end();
  clearToasts();
  vi.clearAllMocks();
  vi.useRealTimers();
});

const nameInput = () => screen.findByLabelText(en('management.company.name'));

describe('management routes', () => {
  it('/management goes on to the company tab', async () => {
    open('/management');
    await waitFor(() => expect(currentLocation()).toBe('/management/company'));
    expect(screen.getByRole('tab', { name: en('management.tabs.company') }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Company', 'Team', 'Project', 'Billing']);
  });

  it("project lists the selected company's projects", async () => {
    open('/management/project');
    expect(await screen.findByText('Mobile apps')).toBeTruthy();
    expect(screen.getByRole('heading', { name: en('management.project.title') })).toBeTruthy();
    expect(projects.list).toHaveBeenCalledWith('c-acme');
  });

  it('a /c/{cid}/p/{pid} route selects that company and project, and its tabs keep the scoped form', async () => {
    renderPage(
      <ProjectScope>
        <ManagementPage />
      </ProjectScope>,
      '/c/c-beta/p/p-beta/management/company',
      '/c/:cid/p/:pid/management/*',
    );
    expect(await nameInput()).toHaveProperty('value', 'Beta');
    expect(selection.getSnapshot()).toMatchObject({ companyId: 'c-beta', projectId: 'p-beta' });
    expect(screen.getByRole('tab', { name: en('management.tabs.team') }).getAttribute('href')).toBe('/c/c-beta/p/p-beta/management/team');
  });

  it('a /c/{cid}/p/{pid} route of a foreign company is ignored', async () => {
    renderPage(
      <ProjectScope>
        <ManagementPage />
      </ProjectScope>,
      '/c/c-foreign/p/p-x/management/company',
      '/c/:cid/p/:pid/management/*',
    );
    expect(await nameInput()).toHaveProperty('value', 'Acme');
    expect(api.get).not.toHaveBeenCalledWith('c-foreign');
  });

  it('shows why the company could not be loaded, with a retry', async () => {
    api.get.mockRejectedValueOnce(new ApiError('The service is not available right now.', 503, 'SERVICE_UNAVAILABLE', null, null));
    open();
    expect((await screen.findByRole('alert')).textContent).toContain('The service is not available right now.');
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: en('management.retry') })));
    expect(await nameInput()).toHaveProperty('value', 'Acme');
  });
});

describe('company settings', () => {
  it('shows the company and refuses a name with a URL', async () => {
    open();
    expect(await nameInput()).toHaveProperty('value', 'Acme');
    expect(screen.getByLabelText(en('management.company.size'))).toHaveProperty('value', '11-50');
    expect(screen.getByLabelText(en('management.company.billingCountry'))).toHaveProperty('value', 'FR');
    expect(screen.getByText(en('management.company.billingCountryHelp'))).toBeTruthy();
    typeInto(en('management.company.name'), 'Visit www.acme');
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: en('management.company.save') })));
    expect(fieldError(en('management.company.name'))).toBe(en('validation.noUrl'));
    expect(api.update).not.toHaveBeenCalled();
  });

  it('saves name, size and billing country, then refreshes the user for the switcher', async () => {
    api.update.mockResolvedValue({ ...acme, name: 'Acme Analytics', size: '51-200', billingCountry: 'DE' });
    open();
    await nameInput();
    typeInto(en('management.company.name'), 'Acme Analytics');
    fireEvent.change(screen.getByLabelText(en('management.company.size')), { target: { value: '51-200' } });
    fireEvent.change(screen.getByLabelText(en('management.company.billingCountry')), { target: { value: 'DE' } });
    auth.me.mockResolvedValue({ ...user, companies: [{ _id: 'c-acme', name: 'Acme Analytics', role: 'admin' as const }, user.companies[1] ?? { _id: '', name: '', role: 'admin' as const }] });
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: en('management.company.save') })));
    expect(api.update).toHaveBeenCalledWith('c-acme', { name: 'Acme Analytics', size: '51-200', billingCountry: 'DE', taxId: '', billingAddress: '', billingPostalCode: '', billingCity: '', logo: undefined });
    expect(getToasts().map((t) => t.text)).toContain(en('management.company.saved'));
    await waitFor(() => expect(selection.getSnapshot().company?.name).toBe('Acme Analytics'));
    expect(screen.getByRole('button', { name: en('management.company.save') })).toHaveProperty('disabled', true);
  });

  it('clears the billing country with an empty string', async () => {
    api.update.mockResolvedValue({ ...acme, billingCountry: null });
    open();
    await nameInput();
    fireEvent.change(screen.getByLabelText(en('management.company.billingCountry')), { target: { value: '' } });
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: en('management.company.save') })));
    expect(api.update).toHaveBeenCalledWith('c-acme', expect.objectContaining({ billingCountry: '' }));
  });

  it('lists the billing countries by their English names, sorted', async () => {
    const names = countryOptions().map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    expect(countryOptions().find((c) => c.code === 'DE')?.name).toBe('Germany');
    open();
    await nameInput();
    const select = screen.getByLabelText(en('management.company.billingCountry'));
    expect(within(select).getAllByRole('option')).toHaveLength(countryOptions().length + 1);
  });

  it('puts server field errors on their fields', async () => {
    api.update.mockRejectedValue(new ApiError('A URL is not allowed here.', 400, 'VALIDATION_FAILED', { name: ['A URL is not allowed here.'] }, null));
    open();
    await nameInput();
    typeInto(en('management.company.name'), 'Acme Two');
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: en('management.company.save') })));
    expect(fieldError(en('management.company.name'))).toBe('A URL is not allowed here.');
  });

  it('uploads a logo with the save, refusing a too big file or another type at once', async () => {
    api.update.mockResolvedValue({ ...acme, logo: '/api/v1/files/new-logo' });
    open();
    await nameInput();
    expect(screen.getByRole('button', { name: en('management.company.uploadLogo') })).toBeTruthy();
    const input = screen.getByTestId('logo-file');
    const big = new File([new Uint8Array(LIMITS.uploadMaxBytes + 1)], 'big.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [big] } });
    expect(screen.getByRole('alert').textContent).toBe(en('errors.FILE_TOO_BIG'));
    fireEvent.change(input, { target: { files: [new File(['<svg/>'], 'x.svg', { type: 'image/svg+xml' })] } });
    expect(screen.getByRole('alert').textContent).toBe(en('errors.FILE_TYPE'));
    expect(screen.getByRole('button', { name: en('management.company.save') })).toHaveProperty('disabled', true);

    const logo = new File([new Uint8Array(100)], 'logo.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [logo] } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText(en('management.company.logoPending'))).toBeTruthy();
    expect(screen.getByRole('img', { name: en('management.company.logoAlt', { name: 'Acme' }) }).getAttribute('src')).toBe('blob:preview');
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: en('management.company.save') })));
    expect(api.update).toHaveBeenCalledWith('c-acme', expect.objectContaining({ logo }));
    await waitFor(() => expect(screen.getByRole('img', { name: en('management.company.logoAlt', { name: 'Acme' }) }).getAttribute('src')).toBe('/api/v1/files/new-logo'));
  });

  it('removes the logo with null', async () => {
    api.get.mockResolvedValue({ ...acme, logo: '/api/v1/files/old' });
    api.update.mockResolvedValue({ ...acme, logo: null });
    open();
    await nameInput();
    fireEvent.click(await screen.findByRole('button', { name: en('management.company.removeLogo') }));
    expect(screen.getByText(en('management.company.logoRemoving'))).toBeTruthy();
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: en('management.company.save') })));
    expect(api.update).toHaveBeenCalledWith('c-acme', expect.objectContaining({ logo: null }));
  });

  it('checks a chosen file by type and size', () => {
    expect(logoProblem({ type: 'image/webp', size: LIMITS.uploadMaxBytes })).toBeNull();
    expect(logoProblem({ type: 'image/png', size: LIMITS.uploadMaxBytes + 1 })).toBe('errors.FILE_TOO_BIG');
    expect(logoProblem({ type: 'application/pdf', size: 10 })).toBe('errors.FILE_TYPE');
  });

  it('shows a viewer the data read-only, without save or danger zone', async () => {
    selection.select('c-beta');
    open();
    const name = await nameInput();
    expect(name).toHaveProperty('value', 'Beta');
    expect(name).toHaveProperty('disabled', true);
    expect(screen.getByLabelText(en('management.company.billingCountry'))).toHaveProperty('disabled', true);
    expect(screen.getByText(en('management.viewerNotice'))).toBeTruthy();
    expect(screen.queryByRole('button', { name: en('management.company.save') })).toBeNull();
    expect(screen.queryByRole('button', { name: en('management.company.uploadLogo') })).toBeNull();
    expect(screen.queryByTestId('logo-file')).toBeNull();
    expect(screen.queryByRole('button', { name: en('management.deletion.action') })).toBeNull();
  });

  it('refreshes every 10 s: untouched fields follow, typed ones stay, and it stops on unmount', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { unmount } = open();
    await nameInput();
    typeInto(en('management.company.name'), 'Acme Typed');
    api.get.mockResolvedValue({ ...acme, name: 'Acme Renamed Elsewhere', size: '1000+' });
    await act(async () => {
      vi.advanceTimersByTime(10_000);
      await Promise.resolve();
    });
    await waitFor(() => expect(screen.getByLabelText(en('management.company.size'))).toHaveProperty('value', '1000+'));
    expect(screen.getByLabelText(en('management.company.name'))).toHaveProperty('value', 'Acme Typed');
    const calls = api.get.mock.calls.length;
    unmount();
    vi.advanceTimersByTime(30_000);
    expect(api.get.mock.calls.length).toBe(calls);
  });
});

describe('deleting the company', () => {
  const startDeletion = async () => {
    open();
    fireEvent.click(await screen.findByRole('button', { name: en('management.deletion.action') }));
    const confirmDialog = screen.getByRole('alertdialog', { name: en('management.deletion.confirmTitle', { name: 'Acme' }) });
    await act(async () => void fireEvent.click(within(confirmDialog).getByRole('button', { name: en('management.deletion.sendCode') })));
    expect(api.requestDeletionCode).toHaveBeenCalledWith('c-acme');
    return screen.getByRole('dialog', { name: en('management.deletion.codeTitle') });
  };
  const cells = (dialog: HTMLElement) => within(dialog).getAllByRole('textbox');
  const paste = async (dialog: HTMLElement, code: string) => {
    await act(async () => void fireEvent.paste(cells(dialog)[0] as HTMLElement, { clipboardData: { getData: () => code } }));
  };

  it('mails a code; a wrong one shows the error and clears the cells; the right one deletes and moves on', async () => {
    api.requestDeletionCode.mockResolvedValue({ codeSent: true });
    api.remove.mockRejectedValueOnce(new ApiError('The verification code is invalid.', 400, 'CODE_INVALID', { verificationCode: ['The verification code is invalid.'] }, null));
    const dialog = await startDeletion();
    expect(within(dialog).getByText(en('management.deletion.codeSent', { email: user.email, name: 'Acme' }))).toBeTruthy();
    expect(cells(dialog)).toHaveLength(5);

    await paste(dialog, '11111');
    expect(api.remove).toHaveBeenCalledWith('c-acme', '11111');
    expect(within(dialog).getByRole('alert').textContent).toBe('The verification code is invalid.');
    expect(cells(dialog).map((c) => (c as HTMLInputElement).value)).toEqual(['', '', '', '', '']);

    api.remove.mockResolvedValueOnce({ deleted: true });
    auth.me.mockResolvedValue({ ...user, companies: [{ _id: 'c-beta', name: 'Beta', role: 'admin' as const }] });
    await paste(dialog, '24680');
    await waitFor(() => expect(currentLocation()).toBe('/dashboard'));
    expect(api.remove).toHaveBeenLastCalledWith('c-acme', '24680');
    expect(getToasts().map((t) => t.text)).toContain(en('management.deletion.deleted', { name: 'Acme' }));
    expect(session.getSnapshot().state).toBe('IN_MANUAL');
    expect(selection.getSnapshot().companyId).toBe('c-beta');
  });

  it('sends a user without a company left through /loading to onboarding', async () => {
    api.requestDeletionCode.mockResolvedValue({ codeSent: true });
    api.remove.mockResolvedValue({ deleted: true });
    const dialog = await startDeletion();
    auth.me.mockResolvedValue({ ...user, companies: [], onboarding: 'company' });
    await paste(dialog, '13579');
    await waitFor(() => expect(currentLocation()).toBe('/loading?referrer=login'));
  });

  it('does nothing when the confirmation is cancelled', async () => {
    open();
    fireEvent.click(await screen.findByRole('button', { name: en('management.deletion.action') }));
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: en('widgets.dialog.cancel') })));
    expect(api.requestDeletionCode).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog', { name: en('management.deletion.codeTitle') })).toBeNull();
  });
});

describe('team', () => {
  it('lists members and open invitations', async () => {
    open('/management/team');
    const members = await screen.findByRole('table', { name: en('management.team.members') });
    expect(within(members).getByText('Ada Lovelace (you)')).toBeTruthy();
    expect(within(members).getByText('bob@example.com')).toBeTruthy();
    expect(within(members).getAllByText('Active')).toHaveLength(2);
    const invitations = screen.getByRole('table', { name: en('management.team.invitations') });
    expect(within(invitations).getByText('new@example.com')).toBeTruthy();
    expect(within(invitations).getByText('Pending')).toBeTruthy();
    expect(within(invitations).getByText('Mar 4, 2026')).toBeTruthy();
    // Nobody removes themselves here.
    expect(screen.queryByRole('button', { name: en('management.team.remove', { name: 'Ada Lovelace' }) })).toBeNull();
  });

  it('invites with a role, then reloads the team', async () => {
    api.invite.mockResolvedValue(null);
    open('/management/team');
    await screen.findByRole('table', { name: en('management.team.members') });
    typeInto(en('management.team.email'), 'not-an-email');
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: en('management.team.invite') })));
    expect(fieldError(en('management.team.email'))).toBe(en('validation.email'));
    expect(api.invite).not.toHaveBeenCalled();

    typeInto(en('management.team.email'), 'grace@example.com');
    fireEvent.change(screen.getByLabelText(en('management.team.role')), { target: { value: 'admin' } });
    const loads = api.team.mock.calls.length;
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: en('management.team.invite') })));
    expect(api.invite).toHaveBeenCalledWith('c-acme', { email: 'grace@example.com', role: 'admin' as const });
    expect(getToasts().map((t) => t.text)).toContain(en('management.team.invited', { email: 'grace@example.com' }));
    expect(api.team.mock.calls.length).toBeGreaterThan(loads);
    expect(screen.getByLabelText(en('management.team.email'))).toHaveProperty('value', '');
  });

  it("shows the API's message when inviting fails", async () => {
    api.invite.mockRejectedValue(new ApiError('This person is already a member of the company.', 409, 'ALREADY_MEMBER', null, null));
    open('/management/team');
    await screen.findByRole('table', { name: en('management.team.members') });
    typeInto(en('management.team.email'), 'bob@example.com');
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: en('management.team.invite') })));
    expect(screen.getByRole('alert').textContent).toBe('This person is already a member of the company.');
  });

  it('removes a member after confirming', async () => {
    api.removeMember.mockResolvedValue(null);
    open('/management/team');
    fireEvent.click(await screen.findByRole('button', { name: en('management.team.remove', { name: 'Bob Stone' }) }));
    const dialog = screen.getByRole('alertdialog', { name: en('management.team.removeTitle', { name: 'Bob Stone' }) });
    await act(async () => void fireEvent.click(within(dialog).getByRole('button', { name: en('management.team.removeConfirm') })));
    expect(api.removeMember).toHaveBeenCalledWith('c-acme', 'u-bob');
    expect(getToasts().map((t) => t.text)).toContain(en('management.team.removed', { name: 'Bob Stone' }));
  });

  it("cancels an invitation after confirming, and shows the API's refusal as a toast", async () => {
    api.cancelInvitation.mockRejectedValue(new ApiError('Not found.', 404, 'NOT_FOUND', null, null));
    open('/management/team');
    fireEvent.click(await screen.findByRole('button', { name: en('management.team.cancelInvitation', { email: 'new@example.com' }) }));
    const dialog = screen.getByRole('alertdialog', { name: en('management.team.cancelTitle') });
    await act(async () => void fireEvent.click(within(dialog).getByRole('button', { name: en('management.team.cancelConfirm') })));
    expect(api.cancelInvitation).toHaveBeenCalledWith('c-acme', 'i-1');
    expect(getToasts().map((t) => [t.text, t.variant])).toContainEqual(['Not found.', 'destructive']);
  });

  it('shows a viewer no invite form and no remove or cancel controls', async () => {
    selection.select('c-beta');
    open('/management/team');
    await screen.findByRole('table', { name: en('management.team.members') });
    expect(screen.queryByLabelText(en('management.team.email'))).toBeNull();
    expect(screen.queryByRole('button', { name: en('management.team.remove', { name: 'Bob Stone' }) })).toBeNull();
    expect(screen.queryByRole('button', { name: en('management.team.cancelInvitation', { email: 'new@example.com' }) })).toBeNull();
    expect(screen.getByText(en('management.viewerNotice'))).toBeTruthy();
  });
});
