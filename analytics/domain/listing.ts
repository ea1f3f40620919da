import { z } from 'zod';
import type { AppDto, MemberDto, TokenDto } from './schemas';

/**
 * The dashboard's management lists (applications, users, tokens) page, sort and search on the
 * server: `?page=1&perPage=25&sort=name&order=ASC&q=...`. Without `page` the whole list comes back
 * (the API's clients and the landing read it so). The total is in the `x-total-count` header.
 */
export const TOTAL_HEADER = 'x-total-count';
export const MAX_PER_PAGE = 500;

/** A list's sortable columns, each read as text or a number. */
type SortKeys<T> = Record<string, (row: T) => string | number>;

const listQuery = <K extends string>(fields: readonly [K, ...K[]]) =>
  z.object({
    page: z.coerce.number({ error: 'validation.invalid' }).int('validation.invalid').min(1, 'validation.invalid').optional(),
    perPage: z.coerce.number({ error: 'validation.invalid' }).int('validation.invalid').min(1, 'validation.invalid').max(MAX_PER_PAGE, 'validation.invalid').optional(),
    sort: z.enum(fields, { error: 'validation.invalid' }).optional(),
    order: z.enum(['ASC', 'DESC'], { error: 'validation.invalid' }).optional(),
    q: z.string().trim().max(200, 'validation.invalid').optional(),
  });

const text = (value: string | null) => value ?? '';

export const APP_SORT: SortKeys<AppDto> = { name: (a) => a.name, type: (a) => a.type, key: (a) => a.key, timezone: (a) => a.timezone, lastDataAt: (a) => text(a.lastDataAt), locked: (a) => Number(a.locked), createdAt: (a) => a.createdAt, _id: (a) => a._id };
export const MEMBER_SORT: SortKeys<MemberDto> = {
  fullName: (m) => m.fullName,
  username: (m) => m.username,
  email: (m) => m.email,
  role: (m) => (m.globalAdmin ? 0 : m.adminOf.length ? 1 : 2),
  locked: (m) => Number(m.locked),
  bannedUntil: (m) => text(m.bannedUntil),
  lastLoginAt: (m) => text(m.lastLoginAt),
  createdAt: (m) => m.createdAt,
};
export const TOKEN_SORT: SortKeys<TokenDto> = { purpose: (r) => r.purpose, status: (r) => r.status, expiresAt: (r) => text(r.expiresAt), multiUse: (r) => Number(r.multiUse), owner: (r) => r.owner.fullName, createdAt: (r) => r.createdAt };

const fieldsOf = <T>(keys: SortKeys<T>) => Object.keys(keys) as [string, ...string[]];
export const appListQuerySchema = listQuery(fieldsOf(APP_SORT));
export const memberListQuerySchema = listQuery(fieldsOf(MEMBER_SORT));
export const tokenListQuerySchema = listQuery(fieldsOf(TOKEN_SORT));
export type ListQuery = z.infer<typeof appListQuerySchema>;

export interface ListPage<T> {
  rows: T[];
  total: number;
}

/** Rows whose text fields contain `q` (any case), sorted by the asked column (ties by the list's order), one page of them. */
export function pageOf<T extends object>(rows: readonly T[], query: ListQuery, keys: SortKeys<T>): ListPage<T> {
  const q = query.q?.toLowerCase();
  const matching = q ? rows.filter((r) => Object.values(r).some((v) => typeof v === 'string' && v.toLowerCase().includes(q))) : [...rows];
  const key = query.sort ? keys[query.sort] : undefined;
  if (key) {
    const sign = query.order === 'DESC' ? -1 : 1;
    matching.sort((a, b) => {
      const x = key(a);
      const y = key(b);
      return sign * (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y)));
    });
  }
  if (query.page === undefined) return { rows: matching, total: matching.length };
  const perPage = query.perPage ?? 25;
  return { rows: matching.slice((query.page - 1) * perPage, query.page * perPage), total: matching.length };
}
