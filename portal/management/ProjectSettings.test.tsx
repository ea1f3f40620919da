// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { selection } from '../../src/companySelection';
import type { CompanyDto } from '../../src/domain/companies/answers';
import type { ProjectDto } from '../../src/domain/projects/schemas';
import { session } from '../../src/session';
import { errorReply, mockRoutes, okReply } from '../../src/testing/fetchMock';
import { en, renderPage, testUser, typeInto } from '../../src/testing/renderPage';
import { DialogHost } from '../../src/ui/dialog/DialogHost';
import { closeDialog, getDialogs } from '../../src/ui/dialog/dialogStore';
import { clearToasts, getToasts } from '../../src/ui/toast/toastStore';
import { ProjectSettings } from './ProjectSettings';

const user = { ...testUser, emailVerified: true, onboarding: null, companies: [{ _id: 'c-acme', name: 'Acme' }] };
const company = (role: 'admin' | 'viewer'): CompanyDto => ({ _id: 'c-acme', name: 'Acme', size: null, logo: null, billingCountry: null, taxId: null, billingAddress: null, billingPostalCode: null, billingCity: null, createdAt: '2026-01-01T00:00:00.000Z', role, projects: [] });
const project = (id: string, name: string, servers: number): ProjectDto => ({ _id: id, name, servers, createdAt: '2026-02-01T00:00:00.000Z' });

let projects: ProjectDto[];

function serve() {
  return mockRoutes({
    'GET /auth/me': okReply(user),
    'GET /companies/c-acme/projects': () => okReply(projects),
    'POST /companies/c-acme/projects': (call) => {
      const created = project('p-new', (call.body as { name: string }).name, 0);
      projects = [...projects, created];
      return okReply(created, 201);
    },
    'PUT /companies/c-acme/projects/p-1': (call) => {
      projects = projects.map((p) => (p._id === 'p-1' ? { ...p, name: (call.body as { name: string }).name } : p));
      return okReply(projects[0]);
    },
    'DELETE /companies/c-acme/projects/p-2': () => {
      projects = projects.filter((p) => p._id !== 'p-2');
      return okReply(null);
    },
    'DELETE /companies/c-acme/projects/p-1': errorReply(409, 'PROJECT_HAS_SERVERS', 'This project still has servers (2). Delete them first, then delete the project.'),
  });
}

beforeEach(async () => {
  localStorage.clear();
  projects = [project('p-1', 'Default project', 2), project('p-2', 'Spare', 0)];
  const api = serve();
  await session.refresh();
  selection.select('c-acme');
  return api;
});

afterEach(() => {
  cleanup();
  session.end();
  clearToasts();
  for (const d of getDialogs()) closeDialog(d.id, false);
  vi.unstubAllGlobals();
});

const open = (role: 'admin' | 'viewer' = 'admin') =>
  renderPage(
    <>
      <ProjectSettings company={company(role)} />
      <DialogHost />
    </>,
    '/management/project',
  );

const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr') as HTMLElement;

describe('Management › Project for an admin', () => {
  it('lists the projects with their server counts and feeds the project switcher', async () => {
    open();
    const row = await rowOf('Default project');
    expect(within(row).getByText('2')).toBeTruthy();
    await waitFor(() => expect(selection.getSnapshot().projects?.map((p) => p.name)).toEqual(['Default project', 'Spare']));
  });

  it('creates a project and lists it', async () => {
    serve();
    open();
    await rowOf('Spare');
    typeInto(en('management.project.newName'), 'Mobile apps');
    fireEvent.click(screen.getByRole('button', { name: en('management.project.create') }));
    expect(await screen.findByText('Mobile apps')).toBeTruthy();
    expect(getToasts().map((t) => t.text)).toContain(en('management.project.created', { name: 'Mobile apps' }));
  });

  it('renames a project in a dialog', async () => {
    open();
    fireEvent.click(await screen.findByRole('button', { name: en('management.project.rename', { name: 'Default project' }) }));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByLabelText(en('management.project.newName'));
    fireEvent.change(input, { target: { value: 'Web apps' } });
    fireEvent.click(within(dialog).getByRole('button', { name: en('management.project.renameSave') }));
    expect(await screen.findByText('Web apps')).toBeTruthy();
  });

  it('deletes an empty project after confirmation', async () => {
    open();
    fireEvent.click(await screen.findByRole('button', { name: en('management.project.delete', { name: 'Spare' }) }));
    const dialog = await screen.findByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: en('management.project.deleteConfirm') }));
    await waitFor(() => expect(screen.queryByText('Spare')).toBeNull());
  });

  it('explains why a project with servers cannot be deleted, and deletes nothing', async () => {
    const api = serve();
    open();
    fireEvent.click(await screen.findByRole('button', { name: en('management.project.delete', { name: 'Default project' }) }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain(en('management.project.hasServers', { count: 2 }));
    expect(api.callsTo('DELETE', '/api/v1/companies/c-acme/projects/p-1')).toHaveLength(0);
  });
});

describe('Management › Project for a viewer', () => {
  it('lists the projects without any way to change them', async () => {
    open('viewer');
    await rowOf('Default project');
    expect(screen.queryByRole('button', { name: en('management.project.create') })).toBeNull();
    expect(screen.queryByRole('button', { name: en('management.project.delete', { name: 'Spare' }) })).toBeNull();
    expect(screen.getByText(en('management.viewerNotice'))).toBeTruthy();
  });
});
