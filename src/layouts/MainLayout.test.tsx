// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authApi } from '../../dataProvider/auth';
import { companiesApi } from '../../dataProvider/companies';
import { ordersApi } from '../../dataProvider/orders';
import { TIMINGS } from '../domain/constants';
import type { CompanyDto } from '../domain/companies/answers';
import { clientConfig } from '../clientConfig';
import { selection } from '../companySelection';
import { session } from '../session';
import { currentLocation, en, renderPage, testUser } from '../testing/renderPage';
import { clearToasts, getToasts } from '../ui/toast/toastStore';
import { MainLayout } from './MainLayout';

vi.mock('../../dataProvider/auth', () => ({ authApi: { me: vi.fn(), signOut: vi.fn() } }));
vi.mock('../../dataProvider/companies', () => ({ companiesApi: { get: vi.fn() } }));
vi.mock('../../dataProvider/orders', () => ({ ordersApi: { pastDue: vi.fn() } }));
const auth = vi.mocked(authApi);
const companies = vi.mocked(companiesApi);
const orders = vi.mocked(ordersApi);

const user = {
  ...testUser,
  emailVerified: true,
  onboarding: null,
  companies: [
    { _id: 'c-zeta', name: 'Zeta Labs', role: 'admin' as const },
    { _id: 'c-acme', name: 'Acme', role: 'admin' as const },
  ],
};
const companyDto = (id: string): CompanyDto => ({ _id: id, name: id, size: null, logo: null, billingCountry: null, taxId: null, billingAddress: null, billingPostalCode: null, billingCity: null, createdAt: '2026-01-01T00:00:00.000Z', role: 'admin', projects: [{ _id: `${id}-p1`, name: 'Default project' }] });

beforeEach(async () => {
  localStorage.clear();
  auth.me.mockResolvedValue(user);
  auth.signOut.mockResolvedValue(null);
  companies.get.mockImplementation(async (id) => companyDto(id));
  orders.pastDue.mockResolvedValue([]);
  await session.refresh();
  selection.select('c-acme');
});

afterEach(() => {
  cleanup();
  session.end();
  clearToasts();
  vi.clearAllMocks();
});

const openMenu = () => fireEvent.click(screen.getByRole('button', { name: en('nav.userMenu') }));

describe('user menu', () => {
  it('shows the current company beside the user icon and lists the companies by name, the current one checked', () => {
    renderPage(<MainLayout />, '/dashboard');
    expect(screen.getByTestId('current-company').textContent).toBe('Acme');
    openMenu();
    const items = screen.getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual(['Acme', 'Zeta Labs', en('nav.profileSettings'), en('nav.logout')]);
    expect(items[0]?.getAttribute('aria-current')).toBe('true');
    expect(items[0]?.classList.contains('Mui-selected')).toBe(true);
    expect(within(items[0] as HTMLElement).getByTestId('CheckIcon')).toBeTruthy();
    expect(within(items[1] as HTMLElement).queryByTestId('CheckIcon')).toBeNull();
  });

  it('offers the affiliate program, opened externally, when its page is configured (SPEC §2)', () => {
    clientConfig.affiliateUrl = 'https://partners.example.com/beacon';
    try {
      renderPage(<MainLayout />, '/dashboard');
      openMenu();
      const link = screen.getByRole('menuitem', { name: en('nav.affiliate') });
      expect(link.getAttribute('href')).toBe('https://partners.example.com/beacon');
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    } finally {
      clientConfig.affiliateUrl = null;
    }
  });

  it('switches the company, closes the menu and says so in a toast', async () => {
    renderPage(<MainLayout />, '/dashboard');
    openMenu();
    await act(async () => void fireEvent.click(screen.getByRole('menuitem', { name: 'Zeta Labs' })));
    expect(selection.getSnapshot().companyId).toBe('c-zeta');
    expect(screen.getByTestId('current-company').textContent).toBe('Zeta Labs');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(getToasts().map((t) => t.text)).toEqual([en('nav.switchedTo', { name: 'Zeta Labs' })]);
    expect(JSON.parse(localStorage.getItem('beacon.selection') ?? '{}')).toMatchObject({ companyId: 'c-zeta' });
  });

  it('leaves a project-scoped address for its unscoped form, which follows the selection', async () => {
    renderPage(<MainLayout />, '/c/c-acme/p/c-acme-p1/management/team', '/c/:cid/p/:pid/*');
    openMenu();
    await act(async () => void fireEvent.click(screen.getByRole('menuitem', { name: 'Zeta Labs' })));
    expect(currentLocation()).toBe('/management/team');
  });

  it('links to the profile settings and logs out to /', async () => {
    renderPage(<MainLayout />, '/dashboard');
    openMenu();
    expect(screen.getByRole('menuitem', { name: en('nav.profileSettings') }).getAttribute('href')).toBe('/profile/account');
    await act(async () => void fireEvent.click(screen.getByRole('menuitem', { name: en('nav.logout') })));
    expect(currentLocation()).toBe('/');
    expect(auth.signOut).toHaveBeenCalled();
    expect(session.getSnapshot().state).toBe('ANONYMOUS');
  });

  it('marks Management as the current section on its project-scoped form too', () => {
    renderPage(<MainLayout />, '/c/c-acme/p/c-acme-p1/management/company', '/c/:cid/p/:pid/*');
    expect(screen.getByRole('link', { name: en('nav.management') }).getAttribute('aria-current')).toBe('page');
  });
});

describe('past-due banner', () => {
  const server = (name: string, pauseAfter: string) => ({ _id: `d-${name}`, name, pastDueSince: '2026-11-10T12:00:00.000Z', pauseAfter });

  it('warns under the navbar how many servers are past due and when they will be paused, linking to billing', async () => {
    orders.pastDue.mockResolvedValue([server('Blog', '2026-11-28T12:00:00.000Z'), server('Shop', '2026-11-24T12:00:00.000Z')]);
    renderPage(<MainLayout />, '/dashboard');
    const banner = await screen.findByTestId('past-due-banner');
    // The soonest pause date is the one that matters.
    expect(banner.textContent).toContain(en('nav.pastDue', { count: 2, date: 'Nov 24, 2026' }));
    expect(orders.pastDue).toHaveBeenCalledWith('c-acme');
    fireEvent.click(within(banner).getByRole('link', { name: en('nav.pastDueLink') }));
    expect(currentLocation()).toBe('/management/billing');
  });

  it('shows nothing when no server is past due, when the check fails, or for a viewer', async () => {
    renderPage(<MainLayout />, '/dashboard');
    await waitFor(() => expect(orders.pastDue).toHaveBeenCalled());
    expect(screen.queryByTestId('past-due-banner')).toBeNull();
    cleanup();

    orders.pastDue.mockRejectedValue(new Error('network down'));
    renderPage(<MainLayout />, '/dashboard');
    await waitFor(() => expect(orders.pastDue).toHaveBeenCalledTimes(2));
    expect(screen.queryByTestId('past-due-banner')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    cleanup();

    orders.pastDue.mockResolvedValue([server('Shop', '2026-11-24T12:00:00.000Z')]);
    companies.get.mockImplementation(async (id) => ({ ...companyDto(id), role: 'viewer' }));
    renderPage(<MainLayout />, '/dashboard');
    await waitFor(() => expect(companies.get).toHaveBeenCalledWith('c-acme'));
    await act(async () => {});
    expect(screen.queryByTestId('past-due-banner')).toBeNull();
  });

  it('checks again every few minutes and follows the selected company', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      renderPage(<MainLayout />, '/dashboard');
      await waitFor(() => expect(orders.pastDue).toHaveBeenCalledTimes(1));
      orders.pastDue.mockResolvedValue([server('Shop', '2026-11-24T12:00:00.000Z')]);
      await act(async () => {
        vi.advanceTimersByTime(TIMINGS.pastDueCheckMs);
      });
      expect(await screen.findByTestId('past-due-banner')).toBeTruthy();
      expect(orders.pastDue).toHaveBeenCalledTimes(2);
      orders.pastDue.mockResolvedValue([]);
      act(() => void selection.select('c-zeta'));
      await waitFor(() => expect(orders.pastDue).toHaveBeenLastCalledWith('c-zeta'));
      await waitFor(() => expect(screen.queryByTestId('past-due-banner')).toBeNull());
    } finally {
      vi.useRealTimers();
    }
  });
});
