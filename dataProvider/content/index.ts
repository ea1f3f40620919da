import type { z } from 'zod';
import { announcementContentSchema, resourcesContentSchema, welcomeContentSchema } from '../../src/domain/content/schemas';
import { apiFetch } from '../httpClient';

/**
 * The content service's blocks (SPEC §7 Other): each is read from its data and checked; when the
 * service is not configured, fails or answers something else, null says the built-in block stands in.
 */
async function load<T>(block: 'announcement' | 'resources' | 'welcome', schema: z.ZodType<T>): Promise<T | null> {
  try {
    const parsed = schema.safeParse((await apiFetch<unknown>(`/content/${block}`)).payload);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const contentApi = {
  announcement: () => load('announcement', announcementContentSchema),
  resources: () => load('resources', resourcesContentSchema),
  welcome: () => load('welcome', welcomeContentSchema),
};
