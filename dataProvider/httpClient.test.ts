import { describe, expect, it, vi } from 'vitest';
import { createI18n } from '../i18n';
import { apiDownload, apiFetch, ApiError, errorMessage, isErrorStatus, setTranslator } from './httpClient';

const i18n = createI18n('Beacon');

describe('SPEC §8 error rule', () => {
  it('treats statuses below 200 and from 400 up as errors', () => {
    expect(isErrorStatus(199)).toBe(true);
    expect(isErrorStatus(200)).toBe(false);
    expect(isErrorStatus(399)).toBe(false);
    expect(isErrorStatus(400)).toBe(true);
    expect(isErrorStatus(503)).toBe(true);
  });

  it('joins the first message of each field with commas and ends with one period', () => {
    const body = { message: 'Please check fields', payload: { errors: { email: ['Enter a valid email address.', 'second'], password: ['Use 8 to 32 characters'] } } };
    expect(errorMessage(body, i18n)).toBe('Enter a valid email address, Use 8 to 32 characters.');
  });

  it('translates a message that is an i18n key', () => {
    expect(errorMessage({ message: 'errors.sessionTimedOut', payload: {} }, i18n)).toBe('Session timed out.');
  });

  it('shows a message that is no key as it is, and <empty> when there is none', () => {
    expect(errorMessage({ message: 'Plan is sold out', payload: {} }, i18n)).toBe('Plan is sold out');
    expect(errorMessage({ payload: {} }, i18n)).toBe('<empty>');
    expect(errorMessage(null, i18n)).toBe('<empty>');
    expect(errorMessage({ message: '', payload: { errors: {} } }, i18n)).toBe('<empty>');
  });
});

describe('apiFetch', () => {
  setTranslator(i18n);

  it('unwraps the envelope and sends cookies', async () => {
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify({ message: 'OK', payload: [1, 2] }), { status: 200 }));
    const res = await apiFetch<number[]>('/plans/public', {}, fetchImpl);
    expect(res.payload).toEqual([1, 2]);
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/plans/public');
    expect(init.credentials).toBe('include');
  });

  it('throws an ApiError carrying the rule message, status, code and field errors', async () => {
    const body = { message: 'Please check fields: email.', code: 'VALIDATION_FAILED', payload: { errors: { email: ['Enter a valid email address.'] } } };
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify(body), { status: 400 }));
    const error = await apiFetch('/users', { method: 'POST', body: '{}' }, fetchImpl).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Enter a valid email address.', status: 400, code: 'VALIDATION_FAILED', fieldErrors: { email: ['Enter a valid email address.'] } });
  });

  it('reads a non-JSON error body as its message', async () => {
    const fetchImpl = vi.fn(async () => new Response('Bad gateway', { status: 502 }));
    await expect(apiFetch('/health', {}, fetchImpl)).rejects.toMatchObject({ message: 'Bad gateway', status: 502 });
  });
});

describe('apiDownload', () => {
  setTranslator(i18n);

  it('answers the bytes of a file, with cookies sent', async () => {
    const fetchImpl = vi.fn(async () => new Response('{"user":{}}', { status: 200, headers: { 'content-type': 'application/json' } }));
    const blob = await apiDownload('/users/u1/export', fetchImpl);
    expect(await blob.text()).toBe('{"user":{}}');
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/users/u1/export');
    expect(init.credentials).toBe('include');
  });

  it('throws the same ApiError as apiFetch for a failed download', async () => {
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify({ message: 'Authentication failed.', code: 'UNAUTHORIZED', payload: {} }), { status: 401 }));
    await expect(apiDownload('/users/u1/export', fetchImpl)).rejects.toMatchObject({ message: 'Authentication failed.', status: 401, code: 'UNAUTHORIZED' });
  });
});
