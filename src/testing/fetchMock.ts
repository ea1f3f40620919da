/** Test helper: a fake API behind the global fetch, so pages run their real data-provider calls. */
import { vi } from 'vitest';

export interface ApiCall {
  method: string;
  /** Path and query after the host, e.g. '/api/v1/users/u1'. */
  path: string;
  /** The parsed JSON body, the FormData of a multipart body, or undefined. */
  body: unknown;
  credentials: RequestCredentials | undefined;
}

export interface MockReply {
  status?: number;
  /** Sent as JSON unless it is already a string. */
  body?: unknown;
  headers?: Record<string, string>;
}

export type ApiHandler = (call: ApiCall) => MockReply | Promise<MockReply>;

/** The API's envelope of a success. */
export const okReply = (payload: unknown, status = 200): MockReply => ({ status, body: { message: '', payload } });

/** The API's envelope of an error: a message, a code and optional field errors. */
export const errorReply = (status: number, code: string, message: string, errors?: Record<string, string[]>): MockReply => ({
  status,
  body: { message, code, payload: errors ? { errors } : {} },
});

function parseBody(body: BodyInit | null | undefined): unknown {
  if (body === undefined || body === null) return undefined;
  if (body instanceof FormData) return body;
  if (typeof body === 'string') {
    try {
      return JSON.parse(body) as unknown;
    } catch {
      return body;
    }
  }
  return body;
}

/**
 * Replaces the global fetch with `handler`; every request is recorded in `calls`. Unhandled
 * requests fail the test loudly through the handler's own throw. Undo with vi.unstubAllGlobals().
 */
export function mockApi(handler: ApiHandler) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const call: ApiCall = { method: (init.method ?? 'GET').toUpperCase(), path: url.pathname + url.search, body: parseBody(init.body), credentials: init.credentials };
    calls.push(call);
    const reply = await handler(call);
    const body = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    return new Response(body, { status: reply.status ?? 200, headers: { 'content-type': 'application/json', ...reply.headers } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock, callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path) };
}

/** A route table for mockApi: 'METHOD /path' (after /api/v1) → a reply, or a handler making one. */
export type ApiRoutes = Record<string, MockReply | ApiHandler>;

/** mockApi over a route table; a request with no route gets a 404 ROUTE_NOT_FOUND, like the server. */
export function mockRoutes(routes: ApiRoutes) {
  return mockApi((call) => {
    const route = routes[`${call.method} ${call.path.replace(/^\/api\/v1/, '')}`];
    if (!route) return errorReply(404, 'ROUTE_NOT_FOUND', `No such API route: ${call.method} ${call.path}.`);
    return typeof route === 'function' ? route(call) : route;
  });
}
