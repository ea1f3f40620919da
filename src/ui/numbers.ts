const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Counts as people read them in the product's en-US format: `100000` → `100,000`. */
export function formatCount(n: number): string {
  return integer.format(n);
}

const UNITS = [
  [1e9, 'gigabyte'],
  [1e6, 'megabyte'],
  [1e3, 'kilobyte'],
] as const;

/** A file's size in decimal units, as a download dialog says it: `980` → `980 B`, `1234567` → `1.2 MB`. */
export function formatBytes(bytes: number): string {
  // The largest unit that reads at least 1 once rounded: 999,999 bytes are "1 MB", not "1,000 kB".
  const unit = UNITS.find(([size]) => Math.round((bytes / size) * 10) >= 10);
  if (!unit) return `${integer.format(bytes)} B`;
  return new Intl.NumberFormat('en-US', { style: 'unit', unit: unit[1], maximumFractionDigits: 1 }).format(bytes / unit[0]);
}
