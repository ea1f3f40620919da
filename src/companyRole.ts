import { may, type AccessLevel } from './domain/companies/access';
import type { CompanyRole } from './domain/constants';
import { useSelection } from './companySelection';
import { useSession } from './session';

/** The signed-in user's role in the selected company, from /auth/me; null without a company. */
export function useCompanyRole(): CompanyRole | null {
  const { user } = useSession();
  const { companyId } = useSelection();
  return user?.companies.find((c) => c._id === companyId)?.role ?? null;
}

/** May the user do what this level allows in the selected company (ACCESS_LEVELS, as the API checks it)? */
export function useMay(level: AccessLevel): boolean {
  return may(useCompanyRole(), level);
}
