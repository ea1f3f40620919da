import type { GetListParams, GetListResult, RaRecord } from 'ra-core';

/** The cursors of one page the server answered (`x-cursor-first`, `x-cursor-last`). */
interface PageKeys {
  first: string;
  last: string;
}

/** What one list (resource, sort, filter, page size) has learned: its pages' cursors and its total. */
interface ListMemory {
  pages: Map<number, PageKeys>;
  total: number | null;
}

type Fetch = (url: string, options: RequestInit) => Promise<{ headers: Headers; json: unknown }>;

const LISTS_KEPT = 20;

/**
 * getList for the admin lists: the pager still asks for page numbers, but a page next to one
 * already read goes by keyset (`after` its neighbour's last row, `before` its first), and the
 * last page by `before=end`, so no page is an OFFSET scan of what came before it. A jump to a
 * page far from any read one falls back to the range.
 */
export function keysetGetList(base: string, fetchJson: Fetch) {
  const lists = new Map<string, ListMemory>();
  const memoryOf = (key: string): ListMemory => {
    let memory = lists.get(key);
    if (!memory) {
      // Forget the oldest lists: a session that browses for hours keeps a handful.
      if (lists.size >= LISTS_KEPT) lists.delete(lists.keys().next().value ?? '');
      memory = { pages: new Map(), total: null };
      lists.set(key, memory);
    }
    return memory;
  };

  return async function getList<T extends RaRecord>(resource: string, params: GetListParams): Promise<GetListResult<T>> {
    const { page, perPage } = params.pagination ?? { page: 1, perPage: 10 };
    const { field, order } = params.sort ?? { field: '_id', order: 'ASC' };
    const filter = params.filter ?? {};
    const memory = memoryOf(JSON.stringify([resource, field, order, filter, perPage]));
    const start = (page - 1) * perPage;
    const query = new URLSearchParams({ sort: JSON.stringify([field, order]), range: JSON.stringify([start, start + perPage - 1]), filter: JSON.stringify(filter) });
    const before = memory.pages.get(page - 1);
    const after = memory.pages.get(page + 1);
    const lastPage = memory.total === null ? null : Math.max(1, Math.ceil(memory.total / perPage));
    if (before) query.set('after', before.last);
    else if (after) query.set('before', after.first);
    else if (page > 1 && page === lastPage) query.set('before', 'end');

    const res = await fetchJson(`${base}/${resource}?${query}`, { signal: params.signal });
    const range = res.headers.get('content-range') ?? '';
    const totalText = range.split('/').pop() ?? '';
    // "10000+": at least that many; the last page is then unknown, so it is never asked by `end`.
    const total = Number.parseInt(totalText, 10);
    memory.total = totalText.endsWith('+') || Number.isNaN(total) ? null : total;
    const first = res.headers.get('x-cursor-first');
    const last = res.headers.get('x-cursor-last');
    if (first && last) memory.pages.set(page, { first, last });
    return { data: res.json as T[], total: Number.isNaN(total) ? 0 : total };
  };
}
