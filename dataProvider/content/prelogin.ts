import type { PreloginContent } from '../../src/domain/content/schemas';
import { apiFetch } from '../httpClient';

/**
 * The content service's pre-login block, or null to use the built-in one. Apart from the other
 * blocks: the front door reads it without zod or the query library (its 170 kB budget).
 */
export async function loadPreloginContent(): Promise<PreloginContent | null> {
  try {
    return (await apiFetch<PreloginContent | null>('/content/prelogin')).payload;
  } catch {
    return null;
  }
}
