import type { companiesApi } from '../../dataProvider/companies';

/** What checking an invitation link answers (GET /companies/invited). */
export type Invitation = Awaited<ReturnType<typeof companiesApi.checkInvited>>;
