import type { Brand, PreloginContent } from '../domain/content/schemas';
import { BRAND_LOGOS_SHOWN, BRAND_OFFSET_MAX } from '../domain/constants';

const FALLBACK_BRANDS: Brand[] = ['northwind', 'lumen', 'quarry', 'halcyon', 'orbital', 'fernway', 'kestrel'].map((name) => ({
  logo: `/brands/${name}.svg`,
  size: 'medium',
  alt: name.charAt(0).toUpperCase() + name.slice(1),
}));

/** Built-in content, used when the content service is not configured or fails. */
export function fallbackPreloginContent(t: (key: string) => string): PreloginContent {
  return { title: t('welcome.title'), subtitle: t('welcome.subtitle'), brandsHeader: t('welcome.brandsHeader'), brands: FALLBACK_BRANDS };
}

/** SPEC §2: four brand logos from a random offset between 0 and 3. */
export function pickBrands(brands: Brand[], random: () => number = Math.random): Brand[] {
  const offset = Math.floor(random() * (BRAND_OFFSET_MAX + 1));
  const picked = brands.slice(offset, offset + BRAND_LOGOS_SHOWN);
  // A short list from the content service still shows as many logos as it has.
  return picked.length ? picked : brands.slice(0, BRAND_LOGOS_SHOWN);
}
