import { eq } from 'drizzle-orm';
import type { CompanySource, RouteRule } from '../../src/domain/companies/access';
import type { Db } from '../db/client';
import { deployments, quotes } from '../db/schema';
import { AppError } from '../errors';
import type { Members } from './companies';
import { UUID } from './plans';

/** What a request names, as the hook sees it before the body is validated. */
export interface NamedIn {
  params: unknown;
  query: unknown;
  body: unknown;
}

const field = (from: unknown, name: string): string | null => {
  const value = from && typeof from === 'object' ? (from as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : null;
};

/**
 * The company rule of ROUTE_ACCESS (src/domain/companies/access.ts), checked for a signed-in user:
 * the company the request names (itself, or through a server or a quote) must have the user as a
 * member holding the route's level. Only an id that names nothing is left to the service, which
 * answers it as it answers any unknown id.
 */
export function createCompanyAccess({ db, members }: { db: Db; members: Members }) {
  async function companyOf(source: CompanySource, request: NamedIn): Promise<string | null> {
    const [kind, where] = source.split(':') as ['company' | 'server' | 'quote', string];
    const [part, name] = where.split('.') as ['params' | 'query' | 'body', string];
    const id = field(request[part], name);
    if (id === null) return null;
    // A malformed id is left to validation and the service, which answer it as they always have.
    if (!UUID.test(id)) return null;
    if (kind === 'company') return id;
    if (kind === 'server') {
      const [row] = await db.select({ companyId: deployments.companyId }).from(deployments).where(eq(deployments.id, id));
      return row?.companyId ?? null;
    }
    const [row] = await db.select({ companyId: quotes.companyId }).from(quotes).where(eq(quotes.id, id));
    // A quote is shown only to its company's billing people: anyone else is told it does not exist.
    if (!row) throw new AppError('QUOTE_NOT_FOUND');
    return row.companyId;
  }

  return {
    async check(userId: string, rule: RouteRule, request: NamedIn): Promise<void> {
      if (rule.scope !== 'company') return;
      const companyId = await companyOf(rule.company, request);
      if (companyId === null) return;
      if (rule.company.startsWith('quote:')) {
        await members.require(companyId, userId, rule.level).catch(() => {
          throw new AppError('QUOTE_NOT_FOUND');
        });
        return;
      }
      await members.require(companyId, userId, rule.level);
    },
  };
}
export type CompanyAccess = ReturnType<typeof createCompanyAccess>;
