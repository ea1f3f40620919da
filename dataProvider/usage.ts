import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MauAlertSettings } from '../src/domain/usage/mauRule';
import type { CompanyUsage } from '../src/domain/usage/schemas';
import { apiFetch } from './httpClient';
import { ONE_SHOT } from './queries';

export type { CompanyUsage, MauAlertSettings };

const company = (id: string) => `/companies/${encodeURIComponent(id)}`;

/** Management → Billing's MAU forecasts and projected bills, and the company's MAU alert settings. */
export const usageApi = {
  get: async (companyId: string) => (await apiFetch<CompanyUsage>(`${company(companyId)}/usage`)).payload,
  setAlerts: async (companyId: string, alerts: MauAlertSettings) => (await apiFetch<MauAlertSettings>(`${company(companyId)}/usage-alerts`, { method: 'PUT', body: JSON.stringify(alerts) })).payload,
};

/** Query keys of this area, under the company's. */
export const usageKeys = {
  usage: (companyId: string) => ['companies', companyId, 'usage'] as const,
};

/** GET /companies/{id}/usage: each server's MAU forecast and projected bill, and the alert settings. */
export function useCompanyUsage(companyId: string) {
  return useQuery({ queryKey: usageKeys.usage(companyId), queryFn: () => usageApi.get(companyId), ...ONE_SHOT });
}

/** PUT /companies/{id}/usage-alerts: the saved settings go straight into the usage on screen. */
export function useSetMauAlerts(companyId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (alerts: MauAlertSettings) => usageApi.setAlerts(companyId, alerts),
    onSuccess: (alerts) => client.setQueryData<CompanyUsage>(usageKeys.usage(companyId), (usage) => usage && { ...usage, alerts }),
  });
}
