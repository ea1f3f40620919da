import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { and, count, desc, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import type { HealthProbe } from '../../src/domain/deployments/schemas';
import type { TaskType } from '../../src/domain/deployments/tasks';
import { healthKeyFor } from '../../analytics/server/services/healthKey';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { analyticsApps, analyticsDailySessions, analyticsJobs, analyticsReports, analyticsTenants, deploymentHealthChecks, deploymentRuntime, deploymentTasks } from '../db/schema';
import { recordEvent } from './deploymentTasks';
import type { Keyring } from './secrets';

/** The provider's answer about the machine: one input of a check, beside the probes of the real path. */
export type MachineHealth = { healthy: boolean; detail: string };
/** What a check's probes found (kept in a task's step log as it is, so plain JSON). */
export type HealthRun = { probes: HealthProbe[]; machine: MachineHealth | null };
export type HealthOutcome = { healthy: boolean; reason: string | null };

/** Checks kept per server (four a hour on the default schedule: two days of them). */
export const HEALTH_CHECKS_KEPT = 200;
/** The device id the SDK probe sends: the endpoint checks it as it checks an SDK's. */
const PROBE_DEVICE_ID = 'beacon-health-check';
const NO_TENANT = 'the server has no analytics dashboard';

/** A process's own listen address as a URL a probe can reach (a wildcard address is reached on loopback). */
export function listenUrl(address: AddressInfo | string | null): string | null {
  if (!address || typeof address === 'string') return null;
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const host = wildcard ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

const plural = (n: number, what: string) => (n === 1 ? `1 ${what}` : `${n} ${what}s`);
/** An error in a few words: the database's own message rather than the query around it. */
function errorWords(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  return (cause instanceof Error ? cause.message : String(cause)).slice(0, 160);
}

class ProbeTimeout extends Error {}
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeTimeout()), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A server's health, probed on its real path rather than taken from the provider alone: its
 * tenant's SDK endpoint answers over HTTP (`/o/sdk` with the tenant's health key, as an SDK would
 * call it), a read of its data answers, and its queued jobs are not late. Each probe's latency is
 * recorded with the check (`deployment_health_checks`), and a failure says why, counting the
 * checks in a row it has lasted ("ingestion answered 503 for 3 checks"). The scheduled checks,
 * the health-check task and a restart's last step all run it.
 */
export function createServerHealth(deps: {
  db: Db;
  keyring: Keyring;
  config: Pick<Config, 'HEALTH_PROBE_URL' | 'HEALTH_PROBE_TIMEOUT_MS' | 'HEALTH_JOBS_LATE_MINUTES' | 'publicUrl'>;
  /** This process's listen address when it listens (null otherwise). */
  selfUrl: () => string | null;
}) {
  const { db, keyring, config } = deps;
  const timeoutMs = config.HEALTH_PROBE_TIMEOUT_MS;
  const seconds = `${Math.round(timeoutMs / 100) / 10} s`;

  /** Where the SDK probe goes: HEALTH_PROBE_URL, else this process's address, else PUBLIC_URL. */
  const probeBase = () => (config.HEALTH_PROBE_URL ?? deps.selfUrl() ?? config.publicUrl).replace(/\/+$/, '');

  /** Runs one probe: `work` answers null when all is well, else what is wrong. */
  async function timed(name: HealthProbe['name'], what: string, work: () => Promise<string | null>): Promise<HealthProbe> {
    const started = performance.now();
    let detail: string | null;
    try {
      detail = await within(work(), timeoutMs);
    } catch (err) {
      detail = err instanceof ProbeTimeout ? `${what} did not answer within ${seconds}` : `${what} failed (${errorWords(err)})`;
    }
    return { name, ok: detail === null, latencyMs: Math.round((performance.now() - started) * 10) / 10, detail };
  }

  /** POST /o/sdk with the health key: 200 naming the tenant, or what ingestion answers (503 while drained). */
  async function sdkProbe(key: string, tenantId: string): Promise<string | null> {
    let res: Response;
    try {
      res = await fetch(`${probeBase()}/o/sdk`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        // In the body, not the query: the key stays out of access logs.
        body: new URLSearchParams({ app_key: key, device_id: PROBE_DEVICE_ID, method: 'sc' }).toString(),
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      if (err instanceof Error && err.name === 'TimeoutError') throw new ProbeTimeout();
      const code = err instanceof Error && err.cause && typeof err.cause === 'object' && 'code' in err.cause ? String(err.cause.code) : errorWords(err);
      return `ingestion unreachable (${code})`;
    }
    const body: unknown = await res.json().catch(() => null);
    if (res.status !== 200) return `ingestion answered ${res.status}`;
    const tenant = body && typeof body === 'object' && 'tenant' in body ? body.tenant : null;
    return tenant === tenantId ? null : 'the SDK endpoint answered for another server';
  }

  /** The tenant's apps and their latest day of sessions: what the dashboard's first screen reads. */
  async function readProbe(tenantId: string): Promise<string | null> {
    const apps = await db.select({ id: analyticsApps.id }).from(analyticsApps).where(eq(analyticsApps.tenantId, tenantId)).limit(100);
    if (apps.length) {
      const s = analyticsDailySessions;
      await db.select({ day: s.day }).from(s).where(inArray(s.appId, apps.map((a) => a.id))).orderBy(desc(s.day)).limit(1);
    }
    return null;
  }

  /** Work waiting past HEALTH_JOBS_LATE_MINUTES: the server's queued tasks, its dashboard's jobs and due email reports. */
  async function jobsProbe(deploymentId: string, tenantId: string | null, taskId: string | null, at: Date): Promise<string | null> {
    const cutoff = new Date(at.getTime() - config.HEALTH_JOBS_LATE_MINUTES * 60_000);
    const t = deploymentTasks;
    const [tasks] = await db
      .select({ n: count() })
      .from(t)
      .where(and(eq(t.deploymentId, deploymentId), eq(t.status, 'queued'), lt(t.updatedAt, cutoff), taskId ? ne(t.id, taskId) : undefined));
    let jobs = 0;
    let reports = 0;
    if (tenantId) {
      const [j] = await db
        .select({ n: count() })
        .from(analyticsJobs)
        .where(and(eq(analyticsJobs.tenantId, tenantId), inArray(analyticsJobs.status, ['queued', 'running']), lt(analyticsJobs.createdAt, cutoff)));
      const [r] = await db
        .select({ n: count() })
        .from(analyticsReports)
        .where(and(eq(analyticsReports.tenantId, tenantId), eq(analyticsReports.enabled, true), lt(analyticsReports.nextRunAt, cutoff)));
      jobs = j?.n ?? 0;
      reports = r?.n ?? 0;
    }
    const late = [
      [tasks?.n ?? 0, 'server task'],
      [jobs, 'dashboard job'],
      [reports, 'email report'],
    ] as const;
    const parts = late.filter(([n]) => n > 0).map(([n, what]) => plural(n, what));
    return parts.length ? `queued jobs are late: ${parts.join(', ')}` : null;
  }

  const service = {
    probeBase,

    /** Runs the probes (outside any transaction: the SDK probe is answered by the API, maybe this very process). */
    async probe(deploymentId: string, options: { machine: MachineHealth | null; taskId?: string | null; at?: Date }): Promise<HealthRun> {
      const at = options.at ?? new Date();
      const [tenant] = await db.select({ id: analyticsTenants.id }).from(analyticsTenants).where(eq(analyticsTenants.deploymentId, deploymentId));
      const jobs = () => jobsProbe(deploymentId, tenant?.id ?? null, options.taskId ?? null, at);
      if (!tenant) {
        const missing = (name: HealthProbe['name']): HealthProbe => ({ name, ok: false, latencyMs: 0, detail: NO_TENANT });
        return { machine: options.machine, probes: [missing('sdk'), missing('read'), await timed('jobs', 'the jobs read', jobs)] };
      }
      const key = await healthKeyFor(db, keyring, tenant.id);
      const probes = [await timed('sdk', 'ingestion', () => sdkProbe(key, tenant.id)), await timed('read', 'the data read', () => readProbe(tenant.id)), await timed('jobs', 'the jobs read', jobs)];
      return { machine: options.machine, probes };
    },

    /**
     * Records a check in the caller's transaction: its row (the task's, when a task ran it), the
     * server's health state, and a timeline entry (always for a requested check; for the scheduled
     * ones only when the state changes). Each failure's words count the checks in a row it has lasted.
     */
    async record(tx: Db, deploymentId: string, run: HealthRun, options: { taskId?: string | null; taskType?: TaskType | null; event: 'always' | 'on_change'; at?: Date }): Promise<HealthOutcome> {
      const at = options.at ?? new Date();
      const h = deploymentHealthChecks;
      const previous = await tx.select({ probes: h.probes }).from(h).where(eq(h.deploymentId, deploymentId)).orderBy(desc(h.checkedAt)).limit(HEALTH_CHECKS_KEPT);
      const parts = new Set<string>();
      if (run.machine && !run.machine.healthy) parts.add(run.machine.detail);
      for (const probe of run.probes) {
        if (probe.ok || !probe.detail) continue;
        let streak = 1;
        for (const p of previous) {
          if (!p.probes.some((q) => q.name === probe.name && !q.ok && q.detail === probe.detail)) break;
          streak += 1;
        }
        parts.add(streak > 1 ? `${probe.detail} for ${streak} checks` : probe.detail);
      }
      const healthy = parts.size === 0 && run.probes.every((p) => p.ok);
      const reason = healthy ? null : [...parts].join('; ') || 'a probe failed';
      await tx.insert(h).values({ deploymentId, taskId: options.taskId ?? null, healthy, probes: run.probes, reason, checkedAt: at });
      // The oldest checks beyond the kept number go (the index on server and time finds them).
      await tx.execute(
        sql`delete from ${h} where ${h.deploymentId} = ${deploymentId} and ${h.checkedAt} < (select ${h.checkedAt} from ${h} where ${h.deploymentId} = ${deploymentId} order by ${h.checkedAt} desc offset ${HEALTH_CHECKS_KEPT - 1} limit 1)`,
      );
      const state = healthy ? 'healthy' : 'unhealthy';
      const [runtime] = await tx.select({ state: deploymentRuntime.healthState }).from(deploymentRuntime).where(eq(deploymentRuntime.deploymentId, deploymentId));
      await tx.update(deploymentRuntime).set({ healthState: state, healthCheckedAt: at, updatedAt: new Date() }).where(eq(deploymentRuntime.deploymentId, deploymentId));
      if (options.event === 'always' || runtime?.state !== state) {
        await recordEvent(tx, deploymentId, 'health', { taskId: options.taskId ?? null, taskType: options.taskType ?? null, message: healthy ? 'healthy' : `unhealthy: ${reason}` });
      }
      return { healthy, reason };
    },

    /** A scheduled check's record, in a transaction of its own (no task logs it). */
    keep(deploymentId: string, run: HealthRun, options: { event: 'always' | 'on_change'; at?: Date }): Promise<HealthOutcome> {
      return db.transaction((tx) => service.record(tx, deploymentId, run, options));
    },
  };
  return service;
}

export type ServerHealth = ReturnType<typeof createServerHealth>;
