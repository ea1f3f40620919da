import { spawn } from 'node:child_process';
import type { FastifyInstance } from 'fastify';

/**
 * Starts a separate watchdog process that SIGKILLs this one `ms` from now unless it has exited.
 * A timer in this process is not enough: a synchronous write to a full stdout pipe (the logger
 * retries with Atomics.wait, also in its exit handler) or a native wait inside process.exit
 * blocks the main thread, and no timer of its own can fire then. The watchdog lives in its own
 * process group, so a Ctrl-C to the terminal does not end it before it is needed.
 */
export function startExitWatchdog(ms: number): void {
  const script = `
    const pid = ${process.pid}, end = Date.now() + ${ms};
    setInterval(() => {
      try { process.kill(pid, 0); } catch { process.exit(0); }
      if (Date.now() >= end) { try { process.kill(pid, 'SIGKILL'); } catch {} process.exit(0); }
    }, 50);`;
  spawn(process.execPath, ['-e', script], { detached: true, stdio: 'ignore', env: {} }).unref();
}

/**
 * SIGTERM and SIGINT stop the app gracefully: no new connections, in-flight requests finish, the
 * database closes. The whole stop is bounded by `timeoutMs`: at 80% of it the process exits from
 * here (logged), and at 100% the watchdog kills it whatever state the process is in.
 */
export function stopOnSignals(app: FastifyInstance, timeoutMs: number): void {
  let closing = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    startExitWatchdog(timeoutMs);
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, Math.floor(timeoutMs * 0.8)).unref();
    try {
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
