import { describe, expect, it } from 'vitest';
import { csvCell, exportLines } from './exportStream';

async function collect(gen: AsyncGenerator<string>) {
  let out = '';
  for await (const chunk of gen) out += chunk;
  return out;
}
async function* batches<T>(...b: T[][]) {
  for (const x of b) yield x;
}

describe('export stream', () => {
  it('quotes CSV cells that need it and defuses spreadsheet formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
    expect(csvCell(true)).toBe('true');
  });

  it('writes a header and every batch, as CSV or valid JSON', async () => {
    const cols = [{ id: 'a', header: 'A' }, { id: 'b', header: 'B' }];
    expect(await collect(exportLines('csv', cols, batches([{ a: 1, b: 'x' }], [], [{ a: 2, b: null }])))).toBe('A,B\n1,x\n2,\n');
    expect(JSON.parse(await collect(exportLines('json', cols, batches([{ a: 1, b: 'x' }], [{ a: 2, b: null }]))))).toEqual([{ a: 1, b: 'x' }, { a: 2, b: null }]);
    expect(JSON.parse(await collect(exportLines('json', cols, batches())))).toEqual([]);
  });
});
