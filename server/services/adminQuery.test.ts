import { sql, type SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../db/schema';
import { readPage, type AdminTable, type PageAt } from './adminQuery';

/** `n` matching rows in memory, and what readPage asked of them: the reads and the counts. */
function rowsOf(n: number, peek?: number) {
  const asked = { reads: [] as number[], counts: 0 };
  const ids = Array.from({ length: n }, (_, i) => `row-${String(i).padStart(4, '0')}`);
  const table: AdminTable<'_id', string> = {
    sortColumns: { _id: { column: users.id, type: 'uuid' } },
    id: users.id,
    async select({ limit, offset }) {
      asked.reads.push(limit);
      return ids.slice(offset, offset + limit).map((id) => ({ row: id, cursor: id, id }));
    },
    async count() {
      asked.counts += 1;
      return n;
    },
    ...(peek === undefined ? {} : { peek }),
  };
  // `where: null`: the list unfiltered.
  const read = (range: [number, number], where: SQL | null = sql`true`, at?: PageAt) => readPage(table, where ?? undefined, ['_id', 'ASC'], range, at);
  return { read, asked };
}

describe('a filtered page with a peek', () => {
  it('takes the total from the rows it read when the list ends within them: no count', async () => {
    const few = rowsOf(15, 50);
    expect(await few.read([0, 9])).toMatchObject({ total: 15, bounded: false });
    expect((await few.read([10, 19])).rows).toEqual(['row-0010', 'row-0011', 'row-0012', 'row-0013', 'row-0014']);
    expect((await few.read([10, 19])).total).toBe(15);
    const none = rowsOf(0, 50);
    expect(await none.read([0, 9])).toMatchObject({ rows: [], total: 0 });
    expect(few.asked).toEqual({ reads: [60, 60, 60], counts: 0 });
    expect(none.asked).toEqual({ reads: [60], counts: 0 });
  });

  it('counts past the end, by keyset, when the peek is filled, and without a filter', async () => {
    const few = rowsOf(15, 50);
    expect((await few.read([20, 29])).total).toBe(15);
    expect((await few.read([10, 19], sql`true`, { after: { value: 'row-0009', id: 'row-0009' } })).total).toBe(15);
    expect((await few.read([0, 9], null)).total).toBe(15);
    // Keyset and unfiltered pages read the page alone.
    expect(few.asked).toEqual({ reads: [60, 10, 10], counts: 3 });
    const longer = rowsOf(61, 50);
    expect(await longer.read([0, 9])).toMatchObject({ total: 61, rows: expect.arrayContaining(['row-0000']) });
    expect((await longer.read([0, 9])).rows).toHaveLength(10);
    expect(longer.asked.counts).toBe(2);
  });

  it('reads the page and counts beside it for a table without a peek', async () => {
    const plain = rowsOf(15);
    expect((await plain.read([0, 9])).total).toBe(15);
    expect(plain.asked).toEqual({ reads: [10], counts: 1 });
  });
});
