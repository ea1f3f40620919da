import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { deployments, mockCloudCalls, mockCloudMachines } from '../db/schema';
import { ProviderError, type CloudProvider, type MachineSpec, type MachineState } from './types';

type Result = Record<string, unknown>;
type MachineRow = typeof mockCloudMachines.$inferSelect;

const newId = (prefix: string) => `${prefix}-${randomBytes(8).toString('hex')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * mock-cloud: a simulated provider, honest about it. Machines take MOCK_CLOUD_BOOT_MS to boot,
 * every call takes MOCK_CLOUD_CALL_MS and fails with probability MOCK_CLOUD_FAILURE_RATE (only the
 * calls in MOCK_CLOUD_FAILING_CALLS when set; servers named for it fail their first calls, see
 * MOCK_CLOUD_FLAKY_SERVERS), and everything it holds is in our database, so it
 * survives restarts. Each call is recorded (applied, replayed or failed): tests count them to prove
 * a step ran once. A request key seen before is answered from its first result.
 */
export function createMockCloud({ db, config }: { db: Db; config: Config }): CloudProvider {
  const failing = config.MOCK_CLOUD_FAILING_CALLS ? new Set(config.MOCK_CLOUD_FAILING_CALLS.split(',').map((s) => s.trim())) : null;
  const fails = (op: string) => config.MOCK_CLOUD_FAILURE_RATE > 0 && (!failing || failing.has(op)) && Math.random() < config.MOCK_CLOUD_FAILURE_RATE;
  const bootsAt = () => new Date(Date.now() + config.MOCK_CLOUD_BOOT_MS);
  const flakyCalls = new Map(
    (config.MOCK_CLOUD_FLAKY_CALLS ?? '')
      .split(',')
      .filter((pair) => pair.includes(':'))
      .map((pair) => [pair.split(':')[0]?.trim() ?? '', Number(pair.split(':')[1])] as const),
  );

  /** A flaky server's call fails until it has failed its count of times (for a browser test of a retry). */
  async function flaky(op: string, deploymentId: string): Promise<boolean> {
    const times = flakyCalls.get(op);
    if (!config.MOCK_CLOUD_FLAKY_SERVERS || !times) return false;
    const [server] = await db.select({ name: deployments.name }).from(deployments).where(eq(deployments.id, deploymentId));
    if (!server?.name.includes(config.MOCK_CLOUD_FLAKY_SERVERS)) return false;
    const failed = await db.$count(mockCloudCalls, and(eq(mockCloudCalls.deploymentId, deploymentId), eq(mockCloudCalls.op, op), eq(mockCloudCalls.outcome, 'failed')));
    return failed < times;
  }

  async function applied(key: string): Promise<Result | null> {
    const [row] = await db
      .select({ result: mockCloudCalls.result })
      .from(mockCloudCalls)
      .where(and(eq(mockCloudCalls.requestKey, key), eq(mockCloudCalls.outcome, 'applied')));
    return row ? (row.result ?? {}) : null;
  }

  async function call<T extends Result>(op: string, deploymentId: string, key: string, apply: (tx: Db) => Promise<T>): Promise<T> {
    if (config.MOCK_CLOUD_CALL_MS) await sleep(config.MOCK_CLOUD_CALL_MS);
    const prior = await applied(key);
    if (prior) {
      await db.insert(mockCloudCalls).values({ op, deploymentId, requestKey: key, outcome: 'replayed', result: prior });
      return prior as T;
    }
    if (fails(op) || (await flaky(op, deploymentId))) {
      await db.insert(mockCloudCalls).values({ op, deploymentId, requestKey: key, outcome: 'failed', result: null });
      throw new ProviderError(`mock-cloud: ${op} failed (simulated failure)`);
    }
    try {
      return await db.transaction(async (tx) => {
        const result = await apply(tx);
        await tx.insert(mockCloudCalls).values({ op, deploymentId, requestKey: key, outcome: 'applied', result });
        return result;
      });
    } catch (err) {
      // The same request applied meanwhile by someone else (the unique key refused ours): theirs stands.
      const raced = await applied(key);
      if (raced) return raced as T;
      throw err;
    }
  }

  async function machine(tx: Db, machineId: string): Promise<MachineRow> {
    const [row] = await tx.select().from(mockCloudMachines).where(eq(mockCloudMachines.id, machineId));
    if (!row || row.status === 'destroyed') throw new ProviderError(`mock-cloud: machine ${machineId} does not exist`);
    return row;
  }

  async function deploymentOf(machineId: string): Promise<string> {
    const [row] = await db.select({ deploymentId: mockCloudMachines.deploymentId }).from(mockCloudMachines).where(eq(mockCloudMachines.id, machineId));
    if (!row) throw new ProviderError(`mock-cloud: machine ${machineId} does not exist`);
    return row.deploymentId;
  }

  /** A change to one machine, as one recorded call. */
  async function onMachine<T extends Result>(op: string, key: string, machineId: string, change: (tx: Db, m: MachineRow) => Promise<T>): Promise<T> {
    return call(op, await deploymentOf(machineId), key, async (tx) => change(tx, await machine(tx, machineId)));
  }

  const setMachine = (tx: Db, id: string, values: Partial<typeof mockCloudMachines.$inferInsert>) => tx.update(mockCloudMachines).set(values).where(eq(mockCloudMachines.id, id));

  async function newMachine(tx: Db, spec: MachineSpec) {
    const id = newId('mc');
    await tx.insert(mockCloudMachines).values({ id, deploymentId: spec.deploymentId, status: 'booting', region: spec.region, size: spec.size, readyAt: bootsAt() });
    return id;
  }

  return {
    code: 'mock-cloud',

    createMachine: (key, spec) => call('createMachine', spec.deploymentId, key, async (tx) => ({ machineId: await newMachine(tx, spec) })),

    async machineState(machineId): Promise<MachineState> {
      const [row] = await db.select().from(mockCloudMachines).where(eq(mockCloudMachines.id, machineId));
      if (!row) return { status: 'missing' };
      if (row.status === 'booting' && row.readyAt.getTime() <= Date.now()) {
        await setMachine(db, machineId, { status: 'running' });
        return { status: 'running' };
      }
      return { status: row.status };
    },

    resize: async (key, machineId, size) => {
      await onMachine('resize', key, machineId, async (tx) => (await setMachine(tx, machineId, { size, status: 'booting', readyAt: bootsAt() }), {}));
    },
    restart: async (key, machineId) => {
      await onMachine('restart', key, machineId, async (tx) => (await setMachine(tx, machineId, { status: 'booting', readyAt: bootsAt() }), {}));
    },
    pause: async (key, machineId) => {
      await onMachine('pause', key, machineId, async (tx) => (await setMachine(tx, machineId, { status: 'paused' }), {}));
    },
    resume: async (key, machineId) => {
      await onMachine('resume', key, machineId, async (tx) => (await setMachine(tx, machineId, { status: 'booting', readyAt: bootsAt() }), {}));
    },
    destroy: async (key, machineId) => {
      await onMachine('destroy', key, machineId, async (tx) => (await setMachine(tx, machineId, { status: 'destroyed', destroyedAt: new Date() }), {}));
    },

    setDomain: (key, machineId, domain, ssl) => onMachine('setDomain', key, machineId, async (tx) => (await setMachine(tx, machineId, { domain, ssl }), { ssl })),

    unlockUsers: async (key, machineId) => {
      await onMachine('unlockUsers', key, machineId, async () => ({}));
    },

    health: async (key, machineId) => {
      const state = await (async () => {
        const [row] = await db.select().from(mockCloudMachines).where(eq(mockCloudMachines.id, machineId));
        return row;
      })();
      if (!state) throw new ProviderError(`mock-cloud: machine ${machineId} does not exist`);
      const result = await call('health', state.deploymentId, key, async () => {
        const up = state.status === 'running' || (state.status === 'booting' && state.readyAt.getTime() <= Date.now());
        return { healthy: up, detail: up ? 'ok' : `machine is ${state.status}` };
      });
      return { healthy: result.healthy, detail: result.detail };
    },
  };
}
