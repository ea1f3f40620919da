// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, renderUi } from '../testUtils';
import type { DataTableColumn } from './columns';
import { DataTable, type ServerTableSource } from './DataTable';
import * as exportFile from './exportFile';
import { tableStorageKey } from './tablePersistence';
import type { TableQuery } from './tableQuery';

interface User {
  _id: string;
  name: string;
  email: string;
  city: string;
}
const makeUsers = (n: number): User[] =>
  Array.from({ length: n }, (_, i) => ({ _id: String(i + 1).padStart(6, '0'), name: `User ${i + 1}`, email: `user${i + 1}@example.com`, city: i % 2 ? 'Paris' : 'Oslo' }));
const columns: DataTableColumn<User>[] = [
  { id: 'name', header: 'Name', value: (u) => u.name },
  { id: 'email', header: 'Email', value: (u) => u.email },
  { id: 'city', header: 'City', value: (u) => u.city, dynamic: true },
];
const getRowId = (u: User) => u._id;

function renderLocal(rows: User[], extra: Partial<Parameters<typeof DataTable<User>>[0]> = {}) {
  return renderUi(<DataTable id="users" label="Users" columns={columns} source={{ kind: 'local', rows }} getRowId={getRowId} exportName="users" {...extra} />);
}
const bodyRows = () => within(screen.getByRole('table', { name: 'Users' })).getAllByRole('row').slice(1);
const firstCells = () => bodyRows().map((r) => within(r).getAllByRole('cell')[0]?.textContent);
const showing = (start: string, end: string, total: string) => en('widgets.table.showing', { start, end, total });

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('DataTable with a local array', () => {
  it('shows the first 10 rows sorted by _id, with the showing text and paging buttons', () => {
    renderLocal(makeUsers(95).reverse());
    expect(firstCells()).toEqual(Array.from({ length: 10 }, (_, i) => `User ${i + 1}`));
    expect(screen.getByText(showing('1', '10', '95'))).toBeTruthy();
    expect(screen.getByRole('button', { name: en('widgets.table.firstPage') }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: en('widgets.table.lastPage') }));
    expect(screen.getByText(showing('91', '95', '95'))).toBeTruthy();
    expect(screen.getByRole('button', { name: en('widgets.table.nextPage') }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: en('widgets.table.previousPage') }));
    expect(screen.getByText(showing('81', '90', '95'))).toBeTruthy();
  });

  it('starts in the order a page asks for, until the user picks another', () => {
    renderLocal(makeUsers(3), { defaultSort: { field: 'email', order: 'DESC' } });
    expect(firstCells()).toEqual(['User 3', 'User 2', 'User 1']);
    expect(screen.getByRole('columnheader', { name: 'Email' }).getAttribute('aria-sort')).toBe('descending');
  });

  it('offers the spec page sizes and keeps the first row in view when the size changes', () => {
    renderLocal(makeUsers(95));
    const perPage = screen.getByLabelText(en('widgets.table.rowsPerPage'));
    expect(within(perPage).getAllByRole('option').map((o) => o.textContent)).toEqual(['5', '10', '20', '50', '100', '200', '1000']);
    fireEvent.change(screen.getByRole('combobox', { name: en('widgets.table.page') }), { target: { value: '4' } });
    expect(screen.getByText(showing('31', '40', '95'))).toBeTruthy();
    fireEvent.change(perPage, { target: { value: '20' } });
    expect(screen.getByText(showing('21', '40', '95'))).toBeTruthy();
  });

  it('sorts with header buttons that report aria-sort', async () => {
    const user = userEvent.setup();
    renderLocal(makeUsers(12));
    const nameHeader = screen.getByRole('columnheader', { name: 'Name' });
    expect(nameHeader.getAttribute('aria-sort')).toBeNull();
    const sortName = within(nameHeader).getByRole('button', { name: 'Name' });
    // Keyboard: the header button is focusable and Enter sorts.
    sortName.focus();
    await user.keyboard('{Enter}');
    expect(nameHeader.getAttribute('aria-sort')).toBe('ascending');
    // Numbers inside text sort by value.
    expect(firstCells().slice(0, 3)).toEqual(['User 1', 'User 2', 'User 3']);
    await user.click(sortName);
    expect(nameHeader.getAttribute('aria-sort')).toBe('descending');
    expect(firstCells()[0]).toBe('User 12');
  });

  it('debounces the search by 500 ms and goes back to page 1', () => {
    vi.useFakeTimers();
    renderLocal(makeUsers(120));
    fireEvent.click(screen.getByRole('button', { name: en('widgets.table.lastPage') }));
    fireEvent.change(screen.getByRole('searchbox', { name: en('widgets.table.search') }), { target: { value: 'User 11' } });
    act(() => vi.advanceTimersByTime(499));
    expect(screen.getByText(showing('111', '120', '120'))).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    // 'User 11' and 'User 110'…'User 119'.
    expect(screen.getByText(showing('1', '10', '11'))).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: en('widgets.table.search') }), { target: { value: 'nobody' } });
    act(() => vi.advanceTimersByTime(500));
    expect(screen.getByText(en('widgets.table.noMatches'))).toBeTruthy();
  });

  it('restarts the search wait on each keystroke', () => {
    vi.useFakeTimers();
    renderLocal(makeUsers(30));
    const box = screen.getByRole('searchbox', { name: en('widgets.table.search') });
    fireEvent.change(box, { target: { value: 'User 2' } });
    act(() => vi.advanceTimersByTime(400));
    fireEvent.change(box, { target: { value: 'User 25' } });
    act(() => vi.advanceTimersByTime(400));
    expect(screen.getByText(showing('1', '10', '30'))).toBeTruthy();
    act(() => vi.advanceTimersByTime(100));
    expect(screen.getByText(showing('1', '1', '1'))).toBeTruthy();
  });

  it('lists pages up to 200 and switches to a clamped number input above', () => {
    const { unmount } = renderLocal(makeUsers(2000));
    expect(screen.getByRole('combobox', { name: en('widgets.table.page') })).toBeTruthy();
    unmount();
    localStorage.clear();
    renderLocal(makeUsers(2001));
    const input = screen.getByRole('spinbutton', { name: en('widgets.table.page') });
    fireEvent.change(input, { target: { value: '999' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(screen.getByText(showing('2,001', '2,001', '2,001'))).toBeTruthy();
    const clamped = screen.getByRole('spinbutton', { name: en('widgets.table.page') });
    expect((clamped as HTMLInputElement).value).toBe('201');
    fireEvent.change(clamped, { target: { value: '0' } });
    fireEvent.blur(clamped);
    expect(screen.getByText(showing('1', '10', '2,001'))).toBeTruthy();
  });

  it('persists its controls per table id and restores them, clamping a stale page', () => {
    const { unmount } = renderLocal(makeUsers(95));
    fireEvent.change(screen.getByLabelText(en('widgets.table.rowsPerPage')), { target: { value: '20' } });
    fireEvent.click(screen.getByRole('button', { name: 'Email' }));
    fireEvent.click(screen.getByRole('button', { name: en('widgets.table.lastPage') }));
    fireEvent.click(screen.getByRole('button', { name: en('widgets.table.columns') }));
    fireEvent.click(screen.getByRole('menuitemcheckbox', { name: 'City' }));
    expect(JSON.parse(localStorage.getItem(tableStorageKey('users')) ?? '')).toEqual({
      page: 5,
      perPage: 20,
      searchQuery: '',
      sort: { field: 'email', order: 'ASC' },
      selectedDynamicCols: ['city'],
    });
    unmount();
    renderLocal(makeUsers(95));
    expect(screen.getByText(showing('81', '95', '95'))).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Email' }).getAttribute('aria-sort')).toBe('ascending');
    expect(screen.getByRole('columnheader', { name: 'City' })).toBeTruthy();
    unmount();
    // Fewer rows now: the restored page 5 clamps to the last page.
    renderLocal(makeUsers(30));
    expect(screen.getByText(showing('21', '30', '30'))).toBeTruthy();
  });

  it('restores a persisted search into the search box', () => {
    localStorage.setItem(tableStorageKey('users'), JSON.stringify({ searchQuery: 'User 7' }));
    renderLocal(makeUsers(30));
    expect((screen.getByRole('searchbox', { name: en('widgets.table.search') }) as HTMLInputElement).value).toBe('User 7');
    expect(screen.getByText(showing('1', '1', '1'))).toBeTruthy();
  });

  it('shows and hides dynamic columns from the column chooser', () => {
    renderLocal(makeUsers(3));
    expect(screen.queryByRole('columnheader', { name: 'City' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: en('widgets.table.columns') }));
    const item = screen.getByRole('menuitemcheckbox', { name: 'City' });
    expect(item.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(item);
    expect(screen.getByRole('menuitemcheckbox', { name: 'City' }).getAttribute('aria-checked')).toBe('true');
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    expect(screen.getByRole('columnheader', { name: 'City' })).toBeTruthy();
    expect(bodyRows()[0]?.textContent).toContain('Oslo');
  });

  it('exports the whole current query with the shown columns to a dated file', async () => {
    const download = vi.spyOn(exportFile, 'downloadParts').mockImplementation(() => undefined);
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(2026, 10, 21, 10) });
    renderLocal(makeUsers(25));
    fireEvent.change(screen.getByRole('searchbox', { name: en('widgets.table.search') }), { target: { value: 'User 2' } });
    await screen.findByText(showing('1', '7', '7'), undefined, { timeout: 2000 });
    fireEvent.click(screen.getByRole('button', { name: en('widgets.table.export') }));
    fireEvent.click(screen.getByRole('menuitem', { name: en('widgets.table.exportCsv') }));
    await vi.waitFor(() => expect(download).toHaveBeenCalled());
    const [parts, format, fileName] = download.mock.calls[0] ?? [];
    expect(format).toBe('csv');
    expect(fileName).toBe('users-2026-11-21.csv');
    const lines = (parts as string[]).join('').trimEnd().split('\r\n');
    expect(lines).toHaveLength(8);
    expect(lines[0]).toBe('\uFEFFName,Email');
    download.mockRestore();
  });

  it('shows the empty view, whose create action needs the right to create', () => {
    const onCreate = vi.fn();
    const { unmount } = renderLocal([], { onCreate, createLabel: 'Invite user' });
    fireEvent.click(screen.getByRole('button', { name: 'Invite user' }));
    expect(onCreate).toHaveBeenCalled();
    expect(screen.queryByRole('table')).toBeNull();
    unmount();
    renderLocal([], { onCreate, createLabel: 'Invite user', canCreate: false });
    expect(screen.getByText(en('widgets.empty.title'))).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Invite user' })).toBeNull();
  });
});

describe('DataTable with server-side data', () => {
  function renderServer(source: Partial<ServerTableSource<User>>) {
    const full: ServerTableSource<User> = { kind: 'server', rows: [], total: undefined, loading: true, onQueryChange: vi.fn(), exportUrl: () => '/x', ...source };
    const view = renderUi(<DataTable id="srv" label="Users" columns={columns} source={full} getRowId={getRowId} exportName="users" />);
    return { ...view, source: full, rerenderWith: (next: Partial<ServerTableSource<User>>) => view.rerender(<DataTable id="srv" label="Users" columns={columns} source={{ ...full, ...next }} getRowId={getRowId} exportName="users" />) };
  }

  it('asks for the restored query, and clamps the page once the total is known', () => {
    localStorage.setItem(tableStorageKey('srv'), JSON.stringify({ page: 9, perPage: 20, sort: { field: 'name', order: 'DESC' }, searchQuery: 'x' }));
    const onQueryChange = vi.fn<(q: TableQuery) => void>();
    const { rerenderWith } = renderServer({ onQueryChange });
    expect(onQueryChange).toHaveBeenLastCalledWith({ page: 9, perPage: 20, sort: { field: 'name', order: 'DESC' }, searchQuery: 'x' });
    rerenderWith({ onQueryChange, loading: false, total: 45, rows: makeUsers(5) });
    expect(onQueryChange).toHaveBeenLastCalledWith({ page: 3, perPage: 20, sort: { field: 'name', order: 'DESC' }, searchQuery: 'x' });
    expect(onQueryChange).toHaveBeenCalledTimes(2);
  });

  it('renders the rows as given and pages through onQueryChange', () => {
    const onQueryChange = vi.fn<(q: TableQuery) => void>();
    const { rerenderWith } = renderServer({ onQueryChange });
    rerenderWith({ onQueryChange, loading: false, total: 1234, rows: makeUsers(10) });
    expect(screen.getByText(showing('1', '10', '1,234'))).toBeTruthy();
    expect(firstCells()[0]).toBe('User 1');
    fireEvent.click(screen.getByRole('button', { name: en('widgets.table.nextPage') }));
    expect(onQueryChange).toHaveBeenLastCalledWith({ page: 2, perPage: 10, sort: { field: '_id', order: 'ASC' }, searchQuery: '' });
    fireEvent.click(screen.getByRole('button', { name: 'Name' }));
    expect(onQueryChange).toHaveBeenLastCalledWith({ page: 1, perPage: 10, sort: { field: 'name', order: 'ASC' }, searchQuery: '' });
  });

  it("points the browser at the server's export of the current query", () => {
    const link = vi.spyOn(exportFile, 'downloadLink').mockImplementation(() => undefined);
    const exportUrl = vi.fn((format: string, q: TableQuery, cols: string[]) => `/api/v1/users/export?format=${format}&page=${q.page}&cols=${cols.join(',')}`);
    const { rerenderWith } = renderServer({ exportUrl });
    rerenderWith({ exportUrl, loading: false, total: 100_000, rows: makeUsers(10) });
    fireEvent.click(screen.getByRole('button', { name: en('widgets.table.export') }));
    fireEvent.click(screen.getByRole('menuitem', { name: en('widgets.table.exportJson') }));
    expect(link).toHaveBeenCalledWith('/api/v1/users/export?format=json&page=1&cols=name,email', expect.stringMatching(/^users-\d{4}-\d{2}-\d{2}\.json$/));
    link.mockRestore();
  });
});
