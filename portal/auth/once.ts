/**
 * Shares one request per key while it is pending. One-time tokens must be sent once, but React's
 * StrictMode runs a mount effect twice in development; the second run joins the first request.
 * Settled requests are forgotten, so opening the same link again later asks the API again.
 */
const pending = new Map<string, Promise<unknown>>();

export function once<T>(key: string, request: () => Promise<T>): Promise<T> {
  const running = pending.get(key) as Promise<T> | undefined;
  if (running) return running;
  const started = request();
  pending.set(key, started);
  const forget = () => void pending.delete(key);
  started.then(forget, forget);
  return started;
}
