/** Pure rules of the code input: one character per cell, typed or pasted from a cell on. */
export const DIGIT = /^[0-9]$/;

export function emptyCells(length: number): string[] {
  return Array.from({ length }, () => '');
}

/**
 * Writes the allowed characters of `text` into the cells from `index` on and says which cell
 * gets the focus next (the one after the last written, or the last cell).
 */
export function fillCells(cells: readonly string[], index: number, text: string, allowed: RegExp = DIGIT): { cells: string[]; focus: number } {
  const next = [...cells];
  const chars = Array.from(text).filter((c) => allowed.test(c));
  let at = index;
  for (const c of chars) {
    if (at >= next.length) break;
    next[at] = c;
    at += 1;
  }
  return { cells: next, focus: Math.min(at, next.length - 1) };
}

export const isComplete = (cells: readonly string[]) => cells.every((c) => c !== '');
