import { useEffect } from 'react';
import { companiesApi } from '../../dataProvider/companies';
import { ApiError } from '../../dataProvider/httpClient';
import { TIMINGS } from '../../src/domain/constants';
import type { CompanyDto, TeamDto } from '../../src/domain/companies/answers';
import { selection } from '../../src/companySelection';
import { session } from '../../src/session';
import { usePolling, type Polled } from '../../src/ui/usePolling';

export interface CompanyData {
  company: CompanyDto;
  team: TeamDto;
}

const loadCompanyData = async (id: string): Promise<CompanyData> => {
  const [company, team] = await Promise.all([companiesApi.get(id), companiesApi.team(id)]);
  return { company, team };
};

/**
 * The selected company and its team, refreshed every 10000 ms while a management page is open
 * (SPEC §7 Companies, §9).
 */
export function useCompanyData(companyId: string | null): Polled<CompanyData> {
  const polled = usePolling(companyId, loadCompanyData, TIMINGS.companyRefreshMs);
  const { data, error } = polled;
  useEffect(() => {
    // The project store learns the projects from here instead of fetching the company again.
    if (data) selection.setProjects(data.company._id, data.company.projects);
  }, [data]);
  useEffect(() => {
    if (!error || session.handleError(error)) return;
    // 403: the user was removed from this company meanwhile; a fresh user list moves the selection on.
    if (error instanceof ApiError && error.status === 403) void session.refresh();
  }, [error]);
  return polled;
}
