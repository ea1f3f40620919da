import type { ConfigurablesDto, PlanDto } from '../../src/domain/plans/schemas';
import { cachedCatalogue } from '../db/catalogueCache';
import type { Db } from '../db/client';
import type { Members } from './companies';
import { getConfigurables } from './configurables';
import { listCompanyPlans, listPublicPlans } from './plans';
import type { SessionUser } from './sessions';

export type CatalogueService = ReturnType<typeof createCatalogueService>;

/** The plan catalogue (SPEC §3 plans, configurables): public, or a member's company's plans. */
export function createCatalogueService(deps: { db: Db; members: Members }) {
  const { db } = deps;
  return {
    publicPlans: (): Promise<PlanDto[]> => listPublicPlans(db),
    /** `load()`'s result kept until the catalogue changes (db/catalogueCache.ts), e.g. an encoded answer. */
    cached: <T>(key: string, load: () => Promise<T>): Promise<T> => cachedCatalogue(db, key, load),
    configurables: (input: { providerCode: string }): Promise<ConfigurablesDto> => getConfigurables(db, input.providerCode),
    /** The plans a company may order: members only. */
    async companyPlans(actor: SessionUser, input: { companyId: string }): Promise<PlanDto[]> {
      await deps.members.require(input.companyId, actor.id);
      return listCompanyPlans(db, input.companyId);
    },
  };
}
