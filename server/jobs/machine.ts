import type { Config } from '../config';
import { mauFromPlanCode } from '../../src/domain/plans/planCode';
import type { MachineSpec } from '../providers';
import { ProviderError } from '../providers';
import type { TaskContext } from './types';

/** The machine a server's plan asks for: its region and its MAU tier. */
export function machineSpec(ctx: TaskContext): MachineSpec {
  return { deploymentId: ctx.deployment.id, region: ctx.deployment.planConfig.region ?? null, size: mauFromPlanCode(ctx.deployment.planCode) ?? 0 };
}

/** The server's default address: its name made URL-safe, and a piece of its id so it is unique. */
export function defaultDomain(ctx: TaskContext): string {
  const slug = ctx.deployment.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 30) || 'server';
  return `${slug}-${ctx.deployment.id.slice(0, 8)}.${ctx.config.SERVER_DOMAIN_SUFFIX}`;
}

/** The machine the server runs on; a task that needs one fails without it. */
export function requireMachine(ctx: TaskContext): string {
  if (!ctx.runtime.machineId) throw new ProviderError('the server has no machine');
  return ctx.runtime.machineId;
}

/** A server's address as a URL: https through the edge, or plain http (removeSSL), with the edge's port when it is not the standard one. */
export function urlOf(domain: string, ssl: boolean, ports: Pick<Config, 'SERVER_ADDRESS_PORT' | 'SERVER_ADDRESS_HTTP_PORT'> = {}): string {
  const port = ssl ? ports.SERVER_ADDRESS_PORT : ports.SERVER_ADDRESS_HTTP_PORT;
  return `${ssl ? 'https' : 'http'}://${domain}${port ? `:${port}` : ''}`;
}
