import { describe, expect, it } from 'vitest';
import { csvField } from './csv';

describe('csvField', () => {
  it('defuses text starting with any of =, +, -, @, tab, carriage return', () => {
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-2')).toBe("'-2");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tx')).toBe("'\tx");
    expect(csvField('\rx')).toBe(`"'\rx"`);
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
  });

  it('leaves other text, numbers and inner formula characters alone, quoting where RFC 4180 needs it', () => {
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField('-5', false)).toBe('-5');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
  });
});
