import type { FastifyBaseLogger } from 'fastify';

/** Product usage events (SPEC §7): one small sink; the log by default. */
export type UsageEventName = 'signupBegin' | 'signupUser';

export interface UsageEventSink {
  record(name: UsageEventName, properties: Record<string, string | number | boolean | null>): void;
}

export function logUsageEventSink(log: FastifyBaseLogger): UsageEventSink {
  return { record: (name, properties) => log.info({ usageEvent: name, ...properties }, `usage event ${name}`) };
}
