import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';

/** Starts the built product on a free port with a fresh embedded database, as `npm start` would. */
export default async function globalSetup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'beacon-e2e-'));
  const config = loadConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', PORT: '0', DATA_DIR: dataDir, DATABASE_URL: undefined, STATIC_DIR: './dist' });
  const app = await buildApp(config);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server did not bind');
  process.env.BASE_URL = `http://127.0.0.1:${address.port}`;
  return async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
