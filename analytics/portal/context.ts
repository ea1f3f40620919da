import { createContext, useContext } from 'react';
import type { DashboardApi } from '../dataProvider/dashboard';
import type { AppDto, DashboardSession } from '../domain/schemas';

/** What every dashboard screen needs: the calls, who is signed in, and the app being looked at. */
export interface AnalyticsState {
  api: DashboardApi;
  session: DashboardSession;
  /** The apps the member sees, refreshed after app changes. */
  apps: AppDto[];
  app: AppDto | null;
  selectApp: (appId: string) => void;
  reloadApps: () => Promise<void>;
  /** False in the dashboard preview (and nothing may change there). */
  writable: boolean;
  /** Where the area is mounted ('/analytics/{deploymentId}' or '/tools/dashboard-preview'). */
  basePath: string;
  /** Inside another page's layout (the preview): that page already has the main landmark. */
  embedded: boolean;
}

export const AnalyticsContext = createContext<AnalyticsState | null>(null);

export function useAnalytics(): AnalyticsState {
  const state = useContext(AnalyticsContext);
  if (!state) throw new Error('useAnalytics outside the analytics area');
  return state;
}

/** The selected app, for screens that cannot work without one (they show the empty view otherwise). */
export function useCurrentApp(): AppDto | null {
  return useAnalytics().app;
}

/** Rights of SPEC §6: a global admin, or an admin of the app, may change it. */
export function canAdminApp(session: DashboardSession, appId: string | undefined): boolean {
  if (session.member.globalAdmin) return true;
  return Boolean(appId && session.member.adminOf.includes(appId));
}
