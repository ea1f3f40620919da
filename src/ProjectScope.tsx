import { useLayoutEffect, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { selection, useSelection } from './companySelection';

/**
 * SPEC §2 navigation guard: a route with cid and pid sets the selected company and project. The
 * store ignores a company the user does not belong to. Runs before paint, so the page never shows
 * the previous company first; runs again when the user's companies change (one just joined).
 */
export function ProjectScope({ children }: { children: ReactNode }) {
  const { cid, pid } = useParams();
  const { companies } = useSelection();
  useLayoutEffect(() => {
    if (cid) selection.select(cid, pid ?? null);
  }, [cid, pid, companies]);
  return children;
}
