/**
 * n / d rounded half up, in integer arithmetic so no float error can tip a half cent.
 * Both must be safe integers, n ≥ 0 and d > 0.
 */
export function divRoundHalfUp(n: number, d: number): number {
  return Math.floor((2 * n + d) / (2 * d));
}

/** A percent such as 25.5 as whole basis points (2550), so rates multiply exactly. */
export function percentToBasisPoints(percent: number): number {
  return Math.round(percent * 100);
}
