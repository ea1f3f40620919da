import { AsyncLocalStorage } from 'node:async_hooks';

/** What a service may know of the request it runs for, without seeing Fastify: the audit log's "from which IP". */
export interface RequestContext {
  ip: string;
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` (the rest of a request, a job) with `context` as the current request. */
export function runInRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The request the caller is serving, or undefined for background work (jobs, the seed). */
export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}
