import { useParams } from 'react-router';

/** The project-scoped prefix `/c/{cid}/p/{pid}` when the page was opened in that form, else ''. */
export function useScopePrefix(): string {
  const { cid, pid } = useParams();
  return cid && pid ? `/c/${encodeURIComponent(cid)}/p/${encodeURIComponent(pid)}` : '';
}
