import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layering rule of ARCHITECTURE.md, checked through the project's own ESLint configuration:
 * browser folders reach the server only through src/domain, admin never imports portal, src/ui never
 * imports dataProvider, the database layer never imports the worker, routes never import the database,
 * jobs never import tables or the query builder.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImports(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports');
}

describe('layering: dependencies point down', () => {
  it.each([
    ['portal/pricing/Fixture.tsx', "import type { PlanDto } from '../../server/services/plans';\nexport type X = PlanDto;\n"],
    ['dataProvider/fixture.ts', "import { API_PREFIX } from '../server/app';\nexport const x = API_PREFIX;\n"],
    ['src/fixture.ts', "import type { Config } from '../server/config';\nexport type X = Config;\n"],
    ['admin/users/fixture.ts', "import { ok } from '../../server/routes/envelope';\nexport const x = ok;\n"],
    ['i18n/fixture.ts', "export { AppError } from '../server/errors';\n"],
    ['src/domain/fixture.ts', "import type { Db } from '../../server/db/client';\nexport type X = Db;\n"],
  ])('%s importing server/ is refused', async (filePath, code) => {
    const messages = await restrictedImports(filePath, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.message).toContain('src/domain');
  });

  it('the same import from src/domain passes', async () => {
    expect(await restrictedImports('portal/pricing/Fixture.tsx', "import type { PlanDto } from '../../src/domain/plans/schemas';\nexport type X = PlanDto;\n")).toEqual([]);
  });

  it('server code may import server modules', async () => {
    expect(await restrictedImports('server/routes/fixture.ts', "import { AppError } from '../errors';\nexport const x = AppError;\n")).toEqual([]);
  });

  it('the database layer never imports services', async () => {
    const messages = await restrictedImports('server/db/fixture.ts', "import { hashPassword } from '../services/passwords';\nexport const x = hashPassword;\n");
    expect(messages).toHaveLength(1);
    expect(await restrictedImports('server/db/fixture.ts', "import { hashPassword } from '../crypto/passwords';\nexport const x = hashPassword;\n")).toEqual([]);
  });

  it('the database layer never imports the worker', async () => {
    const messages = await restrictedImports('server/db/fixture.ts', "import { createQueueSchema } from '../worker/queue';\nexport const x = createQueueSchema;\n");
    expect(messages).toHaveLength(1);
    expect(messages[0]?.message).toContain('below the worker');
    expect(await restrictedImports('server/db/fixture.ts', "import { createQueueSchema } from './queueSchema';\nexport const x = createQueueSchema;\n")).toEqual([]);
  });

  it('the queue never imports services or the worker', async () => {
    const messages = await restrictedImports('server/queue/fixture.ts', "import type { TaskQueue } from '../services/deploymentTasks';\nexport type X = TaskQueue;\n");
    expect(messages).toHaveLength(1);
    expect(await restrictedImports('server/queue/fixture.ts', "import type { Worker } from '../worker';\nexport type X = Worker;\n")).toHaveLength(1);
    expect(await restrictedImports('server/queue/fixture.ts', "import { QUEUE_SCHEMA } from '../db/queueSchema';\nexport const x = QUEUE_SCHEMA;\n")).toEqual([]);
  });

  it('backups never import services, jobs or the worker', async () => {
    expect(await restrictedImports('server/backups/fixture.ts', "import { recordAudit } from '../services/audit';\nexport const x = recordAudit;\n")).toHaveLength(1);
    expect(await restrictedImports('server/backups/fixture.ts', "import { backup } from '../jobs/backup';\nexport const x = backup;\n")).toHaveLength(1);
    expect(await restrictedImports('server/backups/fixture.ts', "import type { Worker } from '../worker';\nexport type X = Worker;\n")).toHaveLength(1);
    expect(await restrictedImports('server/backups/fixture.ts', "import type { Db } from '../db/client';\nexport type X = Db;\n")).toEqual([]);
  });

  it('services never import the worker or the composition root', async () => {
    const worker = await restrictedImports('server/services/fixture.ts', "import { createWorker } from '../worker';\nexport const x = createWorker;\n");
    expect(worker).toHaveLength(1);
    expect(worker[0]?.message).toContain('composition root');
    expect(await restrictedImports('server/services/fixture.ts', "import type { Services } from '../compose';\nexport type X = Services;\n")).toHaveLength(1);
    expect(await restrictedImports('server/services/fixture.ts', "import type { TaskQueue } from '../queue';\nexport type X = TaskQueue;\n")).toEqual([]);
  });

  it.each([
    ['server/routes/fixture.ts', "import { cachedCatalogue } from '../db/catalogueCache';\nexport const x = cachedCatalogue;\n"],
    ['server/routes/admin/fixture.ts', "import type { Db } from '../../db/client';\nexport type X = Db;\n"],
  ])('%s importing server/db is refused', async (filePath, code) => {
    const messages = await restrictedImports(filePath, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.message).toContain('call a service');
  });

  it.each([
    ['server/jobs/fixture.ts', "import { deployments } from '../db/schema';\nexport const x = deployments;\n"],
    ['server/jobs/fixture.ts', "import type { deploymentTasks } from '../db/schema/servers';\nexport type X = typeof deploymentTasks;\n"],
    ['server/jobs/fixture.ts', "import { eq } from 'drizzle-orm';\nexport const x = eq;\n"],
    ['server/jobs/fixture.ts', "import { sql } from 'drizzle-orm/sql';\nexport const x = sql;\n"],
  ])('%s building a query is refused', async (filePath, code) => {
    const messages = await restrictedImports(filePath, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.message).toContain('Jobs call services');
  });

  it('jobs may call services and the backups below them', async () => {
    expect(await restrictedImports('server/jobs/fixture.ts', "import { enqueueTask } from '../services/deploymentTasks';\nimport { takeBackup } from '../backups/tenantBackups';\nimport type { Db } from '../db/client';\nexport const x = [enqueueTask, takeBackup];\nexport type X = Db;\n")).toEqual([]);
  });

  it('routes never reach the database through the app either', async () => {
    const [result] = await eslint.lintText("import type { FastifyInstance } from 'fastify';\nexport const x = (app: FastifyInstance) => app.database.db;\n", { filePath: 'server/routes/fixture.ts' });
    const messages = (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-properties');
    expect(messages).toHaveLength(1);
    expect(messages[0]?.message).toContain('call a service');
  });

  it('routes may import services', async () => {
    expect(await restrictedImports('server/routes/fixture.ts', "import { createIdempotency } from '../services/idempotency';\nexport const x = createIdempotency;\n")).toEqual([]);
  });

  it('admin never imports portal', async () => {
    const messages = await restrictedImports('admin/deployments/Fixture.tsx', "import { statusTone } from '../../portal/deployments/status';\nexport const x = statusTone;\n");
    expect(messages).toHaveLength(1);
    expect(messages[0]?.message).toContain('src/ui');
    // Still refused from server/ too, and MUI's Portal is not portal/.
    expect(await restrictedImports('admin/fixture.ts', "import { ok } from '../server/routes/envelope';\nexport const x = ok;\n")).toHaveLength(1);
    expect(await restrictedImports('admin/deployments/Fixture.tsx', "import { statusTone } from '../../src/ui/servers/status';\nimport Portal from '@mui/material/Portal';\nexport const x = [statusTone, Portal];\n")).toEqual([]);
  });

  it('src/ui never imports dataProvider', async () => {
    const messages = await restrictedImports('src/ui/form/fixture.ts', "import { ApiError } from '../../../dataProvider/httpClient';\nexport const x = ApiError;\n");
    expect(messages).toHaveLength(1);
    expect(messages[0]?.message).toContain('dataProvider');
    expect(await restrictedImports('src/ui/fixture.ts', "import type { Config } from '../../server/config';\nexport type X = Config;\n")).toHaveLength(1);
    expect(await restrictedImports('src/ui/form/fixture.ts', "import { ApiError } from '../../domain/apiError';\nexport const x = ApiError;\n")).toEqual([]);
  });

  it.each([
    ['portal/management/Fixture.tsx', "import { companiesApi } from '../../dataProvider/companies';\nexport const x = companiesApi;\n"],
    ['portal/deployments/Fixture.tsx', "import { apiFetch } from '../../dataProvider/httpClient';\nexport const x = apiFetch;\n"],
    ['admin/users/Fixture.tsx', "import { ordersApi } from '../../dataProvider/orders';\nexport const x = ordersApi;\n"],
    ['src/layouts/Fixture.tsx', "import { usersApi } from '../../dataProvider/users';\nexport const x = usersApi;\n"],
    ['analytics/portal/apps/Fixture.tsx', "import { createDashboardApi } from '../../dataProvider/api';\nexport const x = createDashboardApi;\n"],
  ])('%s calling the API instead of a hook is refused', async (filePath, code) => {
    const messages = await restrictedImports(filePath, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.message).toContain('hooks');
  });

  it('a screen may import its hooks and the wire types', async () => {
    expect(await restrictedImports('portal/management/Fixture.tsx', "import { useCompany } from '../../dataProvider/companies/queries';\nimport type { CompanyUpdate } from '../../dataProvider/companies';\nexport const x = useCompany;\nexport type X = CompanyUpdate;\n")).toEqual([]);
    expect(await restrictedImports('analytics/portal/apps/Fixture.tsx', "import { useDashboardQuery, type DashboardApi } from '../../dataProvider/dashboard';\nexport const x = useDashboardQuery;\nexport type X = DashboardApi;\n")).toEqual([]);
  });
});
