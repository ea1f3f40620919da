import { describe, expect, it } from 'vitest';
import type { DataTableColumn } from './columns';
import { pageOf, queryRows, searchRows, sortRows } from './localQuery';

interface Person {
  _id: string;
  name: string;
  age: number | null;
  joined: Date;
}
const people: Person[] = [
  { _id: 'p3', name: 'grace Hopper', age: 85, joined: new Date('2021-03-01') },
  { _id: 'p1', name: 'Ada Lovelace', age: 36, joined: new Date('2020-01-01') },
  { _id: 'p10', name: 'alan Turing', age: null, joined: new Date('2022-06-23') },
  { _id: 'p2', name: 'Edsger Dijkstra', age: 72, joined: new Date('2019-05-11') },
];
const columns: DataTableColumn<Person>[] = [
  { id: 'name', header: 'Name', value: (p) => p.name },
  { id: 'age', header: 'Age', value: (p) => p.age },
  { id: 'joined', header: 'Joined', value: (p) => p.joined },
];
const names = (rows: readonly Person[]) => rows.map((p) => p.name);

describe('local query', () => {
  it('searches every shown column, ignoring case and surrounding spaces', () => {
    expect(names(searchRows(people, columns, '  LOVE '))).toEqual(['Ada Lovelace']);
    expect(names(searchRows(people, columns, '72'))).toEqual(['Edsger Dijkstra']);
    expect(searchRows(people, columns, '')).toBe(people);
    expect(searchRows(people, columns.slice(1), 'ada')).toEqual([]);
  });

  it('sorts text without regard to case, numbers and dates by value, empty values last', () => {
    expect(names(sortRows(people, columns, { field: 'name', order: 'ASC' }))).toEqual(['Ada Lovelace', 'alan Turing', 'Edsger Dijkstra', 'grace Hopper']);
    expect(names(sortRows(people, columns, { field: 'age', order: 'ASC' }))).toEqual(['Ada Lovelace', 'Edsger Dijkstra', 'grace Hopper', 'alan Turing']);
    expect(names(sortRows(people, columns, { field: 'age', order: 'DESC' }))).toEqual(['grace Hopper', 'Edsger Dijkstra', 'Ada Lovelace', 'alan Turing']);
    expect(names(sortRows(people, columns, { field: 'joined', order: 'DESC' }))[0]).toBe('alan Turing');
  });

  it('sorts by a raw field that is not a column, such as the default _id, numerically', () => {
    expect(sortRows(people, columns, { field: '_id', order: 'ASC' }).map((p) => p._id)).toEqual(['p1', 'p2', 'p3', 'p10']);
  });

  it('keeps the original order for equal values and unknown fields', () => {
    expect(sortRows(people, columns, { field: 'nope', order: 'DESC' })).toEqual(people);
  });

  it('searches then sorts, and pages the result', () => {
    const rows = queryRows(people, columns, { searchQuery: 'a', sort: { field: 'name', order: 'DESC' } });
    expect(names(rows)).toEqual(['grace Hopper', 'Edsger Dijkstra', 'alan Turing', 'Ada Lovelace']);
    expect(names(pageOf(rows, 2, 3))).toEqual(['Ada Lovelace']);
  });
});
