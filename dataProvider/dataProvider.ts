import { HttpError, type DataProvider } from 'ra-core';
import simpleRestProvider from 'ra-data-simple-rest';
import { ApiError, API_BASE, apiFetch } from './httpClient';

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

export const dataProvider: DataProvider = simpleRestProvider(API_BASE, envelopeHttpClient);
