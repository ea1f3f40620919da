import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/net';

// The listening process as `npm start` runs it: embedded database on disk, first admin, signals.
const dataDir = mkdtempSync(join(tmpdir(), 'beacon-proc-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function start(port: number): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    env: { ...process.env, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, STATIC_DIR: './no-such-build', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then((r) => r.ok, () => false);
    if (ok) return { child, output: () => out };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not answer health in time:\n${out}`);
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));
}

const planIds = async (port: number) =>
  ((await (await fetch(`http://127.0.0.1:${port}/api/v1/plans/public`)).json()) as { payload: { _id: string }[] }).payload.map((p) => p._id);

describe('the server process', () => {
  it('creates the first admin once, keeps data across a restart, and exits cleanly on SIGTERM', async () => {
    const port = await freePort();
    const first = await start(port);
    const ids = await planIds(port);
    expect(ids.length).toBeGreaterThan(5);
    expect(first.output()).toMatch(/Platform admin created[\s\S]*email: +admin@beacon\.localhost[\s\S]*password: +\S{20}/);
    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toBe(0);
    expect(first.output()).toContain('shutting down');

    const second = await start(port);
    expect(await planIds(port)).toEqual(ids);
    expect(second.output()).not.toContain('Platform admin created');
    second.child.kill('SIGINT');
    expect(await exited(second.child)).toBe(0);
  }, 120_000);

  it('refuses to start on invalid configuration, naming the variable', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
      env: { ...process.env, PORT: 'not-a-port', DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    expect(await exited(child)).toBe(1);
    expect(err).toContain('PORT');
  }, 30_000);
});
