/**
 * Plan codes look like `v3.mau_1_000_gcp.base`: the MAU tier with `_` as thousands separator,
 * then the provider code. One parser for browser and server.
 */
const PLAN_CODE = /^v\d+\.mau_(\d{1,3}(?:_\d{3})*)_([a-z0-9-]+)\.[a-z0-9_-]+$/;

export interface ParsedPlanCode {
  mau: number;
  provider: string;
}

export function parsePlanCode(code: string): ParsedPlanCode | null {
  const match = PLAN_CODE.exec(code);
  if (!match || match[1] === undefined || match[2] === undefined) return null;
  return { mau: Number(match[1].replaceAll('_', '')), provider: match[2] };
}

/** MAU tier of a plan code, e.g. `mau_1_000` → 1000; null when the code has no tier. */
export function mauFromPlanCode(code: string): number | null {
  return parsePlanCode(code)?.mau ?? null;
}
