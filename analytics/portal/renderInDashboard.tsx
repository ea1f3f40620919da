/** Test helper (jsdom): a dashboard screen in its context, over the sample data with chosen calls replaced. Never imported by the app. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import type { DashboardApi } from '../dataProvider/dashboard';
import '../../src/appI18n';
import { i18n } from '../../src/i18n';
import { DialogHost } from '../../src/ui/dialog/DialogHost';
import '../i18n/register';
import { AnalyticsContext, type AnalyticsState } from './context';
import { createSampleAnalyticsApi } from './sample/sampleApi';

export async function renderInDashboard(element: ReactElement, overrides: Partial<DashboardApi> = {}, state: Partial<AnalyticsState> = {}) {
  const api: DashboardApi = { ...createSampleAnalyticsApi(), writable: true, ...overrides };
  const session = await api.open();
  const value: AnalyticsState = { api, session, apps: session.apps, app: session.apps[0] ?? null, selectApp: () => undefined, reloadApps: async () => undefined, writable: api.writable, basePath: '/analytics/d1', embedded: false, ...state };
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <AnalyticsContext.Provider value={value}>
            {element}
            <DialogHost />
          </AnalyticsContext.Provider>
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}
