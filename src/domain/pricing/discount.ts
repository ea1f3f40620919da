import { divRoundHalfUp, percentToBasisPoints } from './rounding';
import type { DiscountInput, DiscountRefusal, DiscountResult } from './types';

function refusal(discount: DiscountInput, now: Date): DiscountRefusal | null {
  const { kind, value, expiresAt, maxUses, uses } = discount;
  const validValue = kind === 'percent' ? Number.isFinite(value) && value >= 0 && value <= 100 : Number.isSafeInteger(value) && value >= 0;
  const expiry = expiresAt === undefined ? null : Date.parse(expiresAt);
  if (!validValue || Number.isNaN(expiry) || Number.isNaN(now.getTime())) return 'pricing.discountInvalid';
  if (expiry !== null && now.getTime() >= expiry) return 'pricing.discountExpired';
  if (maxUses !== undefined && uses >= maxUses) return 'pricing.discountExhausted';
  return null;
}

/**
 * Applies a discount code to a subtotal in cents. A percent is rounded half up to the cent; either
 * kind is capped at the subtotal, so a discount never takes a total below zero.
 */
export function applyDiscount(discount: DiscountInput, subtotalCents: number, now: Date): DiscountResult {
  const reason = refusal(discount, now);
  if (reason) return { code: discount.code, applied: false, amount: 0, reason };
  const raw = discount.kind === 'percent' ? divRoundHalfUp(subtotalCents * percentToBasisPoints(discount.value), 10_000) : discount.value;
  return { code: discount.code, applied: true, amount: Math.min(raw, subtotalCents), reason: null };
}
