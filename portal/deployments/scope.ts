import { useParams } from 'react-router';

/** The project-scoped prefix `/c/{cid}/p/{pid}` when the page was opened in that form, else ''. */
export function useScopePrefix(): string {
  const { cid, pid } = useParams();
  return cid && pid ? `/c/${encodeURIComponent(cid)}/p/${encodeURIComponent(pid)}` : '';
}

/** Whole dollars without cents, cents when there are some: "$49", "$49.50". */
export function formatMoney(amount: string, currency = 'USD'): string {
  const value = Number(amount);
  return new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: Number.isInteger(value) ? 0 : 2 }).format(value);
}
