import { HttpError, type DataProvider } from 'ra-core';
import simpleRestProvider from 'ra-data-simple-rest';
import { ApiError, API_BASE, apiFetch } from './httpClient';
import { keysetGetList } from './keysetPages';

/** API documents carry `_id`; react-admin wants `id`. Both are kept on the way in. */
export function withIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withIds);
  if (value && typeof value === 'object' && '_id' in value) {
    const record = value as Record<string, unknown>;
    return { ...record, id: record._id };
  }
  return value;
}

/**
 * ra-data-simple-rest's HTTP function, over our envelope: `payload` becomes the JSON react-admin
 * reads, and errors keep SPEC §8's message so react-admin's notifications show it.
 */
export async function envelopeHttpClient(url: string, options: RequestInit = {}) {
  const path = url.startsWith(API_BASE) ? url.slice(API_BASE.length) : url;
  try {
    const res = await apiFetch<unknown>(path, options);
    return { status: res.status, headers: res.headers, body: JSON.stringify(res.payload), json: withIds(res.payload) };
  } catch (error) {
    if (error instanceof ApiError) throw new HttpError(error.message, error.status, error.body);
    throw error;
  }
}

/** What an export asks for: the list's sort and filter, and the file format. */
export interface ExportParams {
  format: 'csv' | 'json';
  sort: { field: string; order: 'ASC' | 'DESC' };
  filter: Record<string, unknown>;
}

/**
 * The admin area's calls beyond CRUD (react-admin demo style: data-provider methods called with
 * useDataProvider + useMutation), so no view builds a URL.
 */
export interface AdminMethods {
  /** Where the server streams the list's whole query as a file (the browser downloads it). */
  exportUrl(resource: string, params: ExportParams): string;
  /** POST /<resource>/<id>/<action> (with the action's body, if any), answering the record again (user lock, unlock...). */
  recordAction<T>(resource: string, params: { id: string; action: string; data?: Record<string, unknown> }): Promise<{ data: T }>;
  /** GET /<resource>/<id>/<view> (the plan group editor's catalogue). */
  recordView<T>(resource: string, params: { id: string; view: string }): Promise<{ data: T }>;
  /** DELETE /view-as: leaves a read-only view as a company's admin. */
  endViewAs(): Promise<void>;
}

export type BeaconDataProvider = DataProvider & AdminMethods;

const path = (resource: string, id: string, tail: string) => `/${resource}/${encodeURIComponent(id)}/${tail}`;

export const adminMethods: AdminMethods = {
  exportUrl: (resource, { format, sort, filter }) =>
    `${API_BASE}/${resource}/export?${new URLSearchParams({ format, sort: JSON.stringify([sort.field, sort.order]), filter: JSON.stringify(filter) })}`,
  async recordAction<T>(resource: string, { id, action, data }: { id: string; action: string; data?: Record<string, unknown> }) {
    const res = await apiFetch<T>(path(resource, id, action), { method: 'POST', body: JSON.stringify(data ?? {}) });
    return { data: withIds(res.payload) as T };
  },
  async recordView<T>(resource: string, { id, view }: { id: string; view: string }) {
    return { data: withIds((await apiFetch<T>(path(resource, id, view))).payload) as T };
  },
  async endViewAs() {
    await apiFetch('/view-as', { method: 'DELETE' });
  },
};

export const dataProvider: BeaconDataProvider = { ...simpleRestProvider(API_BASE, envelopeHttpClient), getList: keysetGetList(API_BASE, envelopeHttpClient), ...adminMethods };
