import type { MauAlertSettings } from '../src/domain/usage/mauRule';
import type { CompanyUsage } from '../src/domain/usage/schemas';
import { apiFetch } from './httpClient';

export type { CompanyUsage, MauAlertSettings };

const company = (id: string) => `/companies/${encodeURIComponent(id)}`;

/** Management → Billing's MAU forecasts and projected bills, and the company's MAU alert settings (issue 33). */
export const usageApi = {
  get: async (companyId: string) => (await apiFetch<CompanyUsage>(`${company(companyId)}/usage`)).payload,
  setAlerts: async (companyId: string, alerts: MauAlertSettings) => (await apiFetch<MauAlertSettings>(`${company(companyId)}/usage-alerts`, { method: 'PUT', body: JSON.stringify(alerts) })).payload,
};
