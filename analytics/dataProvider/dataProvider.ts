import { HttpError, type DataProvider, type GetListParams, type RaRecord } from 'ra-core';
import type { DashboardApi } from './dashboard';
import { ApiError } from '../../dataProvider/httpClient';

/** The dashboard's react-admin resources and the list call behind each (the tenant API answers whole lists). */
export const ANALYTICS_RESOURCES = ['apps', 'members', 'tokens'] as const;
export type AnalyticsResource = (typeof ANALYTICS_RESOURCES)[number];

type Row = RaRecord & Record<string, unknown>;

const withId = <T extends { _id: string }>(rows: T[]): (T & { id: string })[] => rows.map((r) => ({ ...r, id: r._id }));

function listOf(api: DashboardApi, resource: string): Promise<Row[]> {
  switch (resource) {
    case 'apps':
      return api.listApps().then(withId);
    case 'members':
      return api.listMembers().then(withId);
    case 'tokens':
      return api.listTokens().then(withId);
    default:
      throw new Error(`unknown analytics resource ${resource}`);
  }
}

/** Sorted, filtered (`q` over every text field) and paged in the browser, as react-admin asks. */
function page(rows: Row[], params: GetListParams): { data: Row[]; total: number } {
  const q = typeof params.filter?.q === 'string' ? params.filter.q.toLowerCase() : '';
  const matching = q ? rows.filter((r) => Object.values(r).some((v) => typeof v === 'string' && v.toLowerCase().includes(q))) : rows;
  const { field, order } = params.sort ?? { field: 'id', order: 'ASC' };
  const sorted = [...matching].sort((a, b) => String(a[field] ?? '').localeCompare(String(b[field] ?? '')) * (order === 'DESC' ? -1 : 1));
  const { page: n = 1, perPage = sorted.length || 1 } = params.pagination ?? {};
  return { data: sorted.slice((n - 1) * perPage, n * perPage), total: sorted.length };
}

/** API errors keep the SPEC §8 message, so react-admin's notifications show it. */
async function wrap<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError) throw new HttpError(error.message, error.status, error.body);
    throw error;
  }
}

/**
 * react-admin's data provider for the dashboard's resources (applications, users, tokens), over
 * the DashboardApi in use: the live tenant API, or the preview's sample data.
 */
export function analyticsDataProvider(api: DashboardApi): DataProvider {
  const one = async (resource: string, id: unknown) => {
    const found = (await listOf(api, resource)).find((r) => r.id === id);
    if (!found) throw new HttpError('Not found', 404);
    return found;
  };
  const provider = {
    getList: (resource: string, params: GetListParams) => wrap(async () => page(await listOf(api, resource), params)),
    getOne: (resource: string, params: { id: unknown }) => wrap(async () => ({ data: await one(resource, params.id) })),
    getMany: (resource: string, params: { ids: unknown[] }) => wrap(async () => ({ data: (await listOf(api, resource)).filter((r) => params.ids.includes(r.id)) })),
    getManyReference: (resource: string, params: GetListParams) => wrap(async () => page(await listOf(api, resource), params)),
    create: (resource: string, params: { data: Record<string, unknown> }) =>
      wrap(async () => {
        if (resource === 'apps') return { data: withId([await api.createApp(params.data as Parameters<DashboardApi['createApp']>[0])])[0] };
        if (resource === 'members') return { data: withId([await api.addMember(params.data as Parameters<DashboardApi['addMember']>[0])])[0] };
        throw new Error(`create ${resource}: use the resource's own screen`);
      }),
    update: (resource: string, params: { id: unknown; data: Record<string, unknown> }) =>
      wrap(async () => {
        const id = String(params.id);
        if (resource === 'apps') return { data: withId([await api.updateApp(id, params.data as Parameters<DashboardApi['updateApp']>[1])])[0] };
        if (resource === 'members') return { data: withId([await api.updateMember(id, params.data as Parameters<DashboardApi['updateMember']>[1])])[0] };
        throw new Error(`update ${resource} is not possible`);
      }),
    updateMany: () => Promise.reject(new Error('not supported')),
    delete: (resource: string, params: { id: unknown; previousData?: RaRecord }) =>
      wrap(async () => {
        const id = String(params.id);
        if (resource === 'apps') await api.deleteApp(id);
        else if (resource === 'members') await api.removeMember(id);
        else if (resource === 'tokens') await api.deleteToken(id);
        return { data: params.previousData ?? { id } };
      }),
    deleteMany: () => Promise.reject(new Error('not supported')),
  };
  return provider as unknown as DataProvider;
}
