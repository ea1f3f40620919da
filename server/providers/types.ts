/**
 * What a cloud provider does for a server. Every call that changes something takes a request key:
 * the same key again must not do the work twice (real clouds take a request id for this), so a
 * task resumed after a crash can repeat its last call safely.
 */
export interface MachineSpec {
  deploymentId: string;
  region: string | null;
  /** The MAU tier the machine is sized for. */
  size: number;
}

export interface MachineState {
  status: 'booting' | 'running' | 'paused' | 'destroyed' | 'missing';
}

export interface CloudProvider {
  readonly code: string;
  createMachine(key: string, spec: MachineSpec): Promise<{ machineId: string }>;
  machineState(machineId: string): Promise<MachineState>;
  resize(key: string, machineId: string, size: number): Promise<void>;
  restart(key: string, machineId: string): Promise<void>;
  pause(key: string, machineId: string): Promise<void>;
  resume(key: string, machineId: string): Promise<void>;
  destroy(key: string, machineId: string): Promise<void>;
  /** Points the domain at the machine and, with ssl, issues its certificate. */
  setDomain(key: string, machineId: string, domain: string, ssl: boolean): Promise<{ ssl: boolean }>;
  /** Unlocks the analytics users locked out of the server's dashboard. */
  unlockUsers(key: string, machineId: string): Promise<void>;
  health(key: string, machineId: string): Promise<{ healthy: boolean; detail: string }>;
}

/** A provider's refusal or failure: the task retries, then fails with this message. */
export class ProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderError';
  }
}
