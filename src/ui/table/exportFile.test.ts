import { describe, expect, it } from 'vitest';
import type { DataTableColumn } from './columns';
import { buildExportParts, csvField, exportFileName } from './exportFile';

interface Row {
  id: number;
  name: string;
  when: Date | null;
}
const columns: DataTableColumn<Row>[] = [
  { id: 'id', header: 'ID', value: (r) => r.id },
  { id: 'name', header: 'Name, full', value: (r) => r.name },
  { id: 'when', header: 'When', value: (r) => r.when },
];
const immediate = () => Promise.resolve();

describe('export', () => {
  it('names the file with the local date', () => {
    expect(exportFileName('users', 'csv', new Date(2026, 10, 21, 23, 59))).toBe('users-2026-11-21.csv');
    expect(exportFileName('users', 'json', new Date(2026, 0, 5))).toBe('users-2026-01-05.json');
  });

  it('quotes CSV fields that need it and defuses formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField('+1')).toBe("'+1");
    expect(csvField(-5)).toBe('-5');
    expect(csvField(null)).toBe('');
    expect(csvField(new Date('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03:04:05.000Z');
  });

  it('builds CSV in chunks with a header line and one line per row', async () => {
    const rows: Row[] = Array.from({ length: 12_345 }, (_, i) => ({ id: i + 1, name: `User ${i + 1}`, when: null }));
    let yields = 0;
    const parts = await buildExportParts(rows, columns, 'csv', {
      chunkSize: 5000,
      yieldToBrowser: () => {
        yields += 1;
        return Promise.resolve();
      },
    });
    expect(parts).toHaveLength(4);
    expect(yields).toBe(2);
    const lines = parts.join('').split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(12_345 + 2);
    expect(lines[0]).toBe('\uFEFFID,"Name, full",When');
    expect(lines[12_345]).toBe('12345,User 12345,');
  });

  it('leaves out columns marked not exportable, such as row actions', async () => {
    const withActions: DataTableColumn<Row>[] = [...columns, { id: 'actions', header: 'Actions', value: () => '', exportable: false }];
    const rows: Row[] = [{ id: 1, name: 'Ada', when: null }];
    const csv = (await buildExportParts(rows, withActions, 'csv', { yieldToBrowser: immediate })).join('');
    expect(csv).toBe('\uFEFFID,"Name, full",When\r\n1,Ada,\r\n');
    const json = JSON.parse((await buildExportParts(rows, withActions, 'json', { yieldToBrowser: immediate })).join('')) as unknown;
    expect(json).toEqual([{ id: 1, name: 'Ada', when: null }]);
  });

  it('builds valid JSON keyed by column id, also when empty', async () => {
    const rows: Row[] = [
      { id: 1, name: 'Ada', when: new Date('2026-01-02T00:00:00Z') },
      { id: 2, name: 'Grace', when: null },
    ];
    const json = JSON.parse((await buildExportParts(rows, columns, 'json', { chunkSize: 1, yieldToBrowser: immediate })).join('')) as unknown;
    expect(json).toEqual([
      { id: 1, name: 'Ada', when: '2026-01-02T00:00:00.000Z' },
      { id: 2, name: 'Grace', when: null },
    ]);
    expect(JSON.parse((await buildExportParts([], columns, 'json')).join(''))).toEqual([]);
  });
});
