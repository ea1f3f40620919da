import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import { companyKeys, useCompany, useCompanyMembers } from '../../dataProvider/companies/queries';
import { ApiError } from '../../dataProvider/httpClient';
import { TIMINGS } from '../../src/domain/constants';
import type { CompanyDto, TeamDto } from '../../src/domain/companies/answers';
import { selection } from '../../src/companySelection';
import { session } from '../../src/session';

/** What a live-refreshed read gives a screen. */
export interface Polled<T> {
  /** The last loaded data of the current key; undefined until the first answer. */
  data: T | undefined;
  /** The error of the last load, cleared by the next success. */
  error: unknown;
  /** Loads now (e.g. after a change the user made) and resolves once the answer is in. */
  reload: () => Promise<void>;
  /** Puts data in at once, e.g. what a save answered, without waiting for the next poll. */
  put: (data: T) => void;
}

export interface CompanyData {
  company: CompanyDto;
  team: TeamDto;
}

const LIVE = { refetchInterval: TIMINGS.companyRefreshMs };

/**
 * The selected company and its team, refreshed every 10000 ms while a management page is open
 * (SPEC §7 Companies, §9); `put` shows what a save answered at once.
 */
export function useCompanyData(companyId: string | null): Polled<CompanyData> {
  const client = useQueryClient();
  const company = useCompany(companyId, LIVE);
  const team = useCompanyMembers(companyId, LIVE);
  const data = useMemo(() => (company.data && team.data ? { company: company.data, team: team.data } : undefined), [company.data, team.data]);
  const error = company.error ?? team.error ?? undefined;
  useEffect(() => {
    // The project store learns the projects from here instead of fetching the company again.
    if (data) selection.setProjects(data.company._id, data.company.projects);
  }, [data]);
  useEffect(() => {
    if (!error || session.handleError(error)) return;
    // 403: the user was removed from this company meanwhile; a fresh user list moves the selection on.
    if (error instanceof ApiError && error.status === 403) void session.refresh();
  }, [error]);
  const { refetch: refetchCompany } = company;
  const { refetch: refetchTeam } = team;
  const reload = useCallback(async () => {
    await Promise.all([refetchCompany(), refetchTeam()]);
  }, [refetchCompany, refetchTeam]);
  const put = useCallback(
    (next: CompanyData) => {
      client.setQueryData(companyKeys.one(next.company._id), next.company);
      client.setQueryData(companyKeys.members(next.company._id), next.team);
    },
    [client],
  );
  return { data, error, reload, put };
}
