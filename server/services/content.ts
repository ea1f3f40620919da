import type { ContentBlock } from '../../src/domain/content/schemas';
import { contentSchemas } from '../../src/domain/content/schemas';
import { AppError } from '../errors';

export interface ContentSource {
  url?: string;
  token?: string;
  timeoutMs: number;
}

const CACHE_MS = 5 * 60 * 1000;

/**
 * Reads marketing blocks from the content service with its bearer token, which never reaches the
 * browser. Answers null when no service is configured; the client then shows built-in content.
 */
export function createContentService(source: ContentSource, fetchImpl: typeof fetch = fetch) {
  const cache = new Map<ContentBlock, { at: number; data: unknown }>();

  async function getContent(block: ContentBlock): Promise<unknown> {
    if (!source.url) return null;
    const hit = cache.get(block);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.data;
    let data: unknown;
    try {
      const res = await fetchImpl(`${source.url.replace(/\/+$/, '')}/${block}`, {
        headers: { accept: 'application/json', ...(source.token ? { authorization: `Bearer ${source.token}` } : {}) },
        signal: AbortSignal.timeout(source.timeoutMs),
      });
      if (!res.ok) throw new Error(`content service answered ${res.status}`);
      data = ((await res.json()) as { data?: unknown }).data;
      const schema = contentSchemas[block];
      if (schema) data = schema.parse(data);
      if (data === undefined) throw new Error('content service answered without data');
    } catch {
      throw new AppError('CONTENT_UNAVAILABLE');
    }
    cache.set(block, { at: Date.now(), data });
    return data;
  }

  return { getContent };
}
export type ContentService = ReturnType<typeof createContentService>;
