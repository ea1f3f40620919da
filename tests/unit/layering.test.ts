import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layering rule of ARCHITECTURE.md, checked through the project's own ESLint configuration:
 * browser folders reach the server only through src/domain.
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
    expect(await restrictedImports('portal/pricing/Fixture.tsx', "import type { PlanDto } from '../../src/domain/schemas/plans';\nexport type X = PlanDto;\n")).toEqual([]);
  });

  it('server code may import server modules', async () => {
    expect(await restrictedImports('server/routes/fixture.ts', "import { AppError } from '../errors';\nexport const x = AppError;\n")).toEqual([]);
  });

  it('the database layer never imports services', async () => {
    const messages = await restrictedImports('server/db/fixture.ts', "import { hashPassword } from '../services/passwords';\nexport const x = hashPassword;\n");
    expect(messages).toHaveLength(1);
    expect(await restrictedImports('server/db/fixture.ts', "import { hashPassword } from '../crypto/passwords';\nexport const x = hashPassword;\n")).toEqual([]);
  });
});
