import { isParamName, patternProblem } from '../../domain/rules';

export interface EndpointDraft {
  path: string;
  params: { name: string; pattern: string }[];
}

export interface TokenDraft {
  purpose: string;
  endpoints: EndpointDraft[];
  allApps: boolean;
  apps: string[];
  neverExpires: boolean;
  amount: string;
  unit: 'hours' | 'days' | 'months';
  multiUse: boolean;
}

export type TokenProblem = 'purpose' | 'apps' | 'expiry' | { endpoint: number; param?: number };

/** SPEC §5 token rules, checked before sending (the server checks them again). */
export function tokenProblems(draft: TokenDraft): TokenProblem[] {
  const problems: TokenProblem[] = [];
  if (!draft.purpose.trim()) problems.push('purpose');
  if (!draft.allApps && !draft.apps.length) problems.push('apps');
  const amount = Number(draft.amount);
  if (!draft.neverExpires && !(Number.isInteger(amount) && amount >= 1)) problems.push('expiry');
  draft.endpoints.forEach((e, i) => {
    if (patternProblem(e.path)) problems.push({ endpoint: i });
    e.params.forEach((p, j) => {
      if (!isParamName(p.name) || patternProblem(p.pattern)) problems.push({ endpoint: i, param: j });
    });
  });
  return problems;
}

/** The create call's body. */
export function tokenBody(draft: TokenDraft) {
  return {
    purpose: draft.purpose.trim(),
    endpoints: draft.endpoints.map((e) => ({ path: e.path, params: Object.fromEntries(e.params.map((p) => [p.name.trim(), p.pattern])) })),
    allApps: draft.allApps,
    apps: draft.allApps ? [] : draft.apps,
    neverExpires: draft.neverExpires,
    expiry: draft.neverExpires ? null : { amount: Number(draft.amount), unit: draft.unit },
    multiUse: draft.multiUse,
  };
}
