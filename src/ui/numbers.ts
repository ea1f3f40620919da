const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Counts as people read them in the product's en-US format: `100000` → `100,000`. */
export function formatCount(n: number): string {
  return integer.format(n);
}
