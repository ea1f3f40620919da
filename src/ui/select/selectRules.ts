/** SPEC §9 select sizes and the SPEC §5 item-count rule of multi selects. */
export const SELECT_DEFAULT_WIDTH = 400;
export const SELECT_LIST_HEIGHT = 300;

export type CountProblem = { kind: 'min' | 'max'; limit: number } | null;

/** In multi mode the number of chosen items must stay between `min` and `max`. */
export function countProblem(count: number, min?: number, max?: number): CountProblem {
  if (min !== undefined && count < min) return { kind: 'min', limit: min };
  if (max !== undefined && count > max) return { kind: 'max', limit: max };
  return null;
}

/** At the maximum, only chosen items stay enabled, so a user cannot go over it. */
export function atMaximum(count: number, max?: number): boolean {
  return max !== undefined && count >= max;
}
