import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { apiFetch } from '../../dataProvider/httpClient';
import { ONE_SHOT } from '../../dataProvider/queries';
import { clientConfig } from '../../src/clientConfig';
import {
  announcementContentSchema,
  resourcesContentSchema,
  welcomeContentSchema,
  type AnnouncementContent,
  type ResourcesContent,
  type WelcomeContent,
} from '../../src/domain/content/schemas';
import type { z } from 'zod';

/**
 * The dashboard's blocks from the content service (SPEC §7 Other): each is read from its data
 * and checked; when the service is not configured, fails or answers something else, the built-in
 * block stands in.
 */
async function load<T>(block: 'announcement' | 'resources' | 'welcome', schema: z.ZodType<T>): Promise<T | null> {
  try {
    const parsed = schema.safeParse((await apiFetch<unknown>(`/content/${block}`)).payload);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const loadAnnouncement = () => load('announcement', announcementContentSchema);
/** The announcement block; `data` is undefined until it is in, null when the built-in one stands in. */
export const useAnnouncement = () => useQuery({ queryKey: ['content', 'announcement'], queryFn: loadAnnouncement, ...ONE_SHOT });
export const loadResources = () => load('resources', resourcesContentSchema);
export const loadWelcome = () => load('welcome', welcomeContentSchema);

export function fallbackAnnouncement(t: TFunction): AnnouncementContent {
  return { title: t('dashboard.announcementTitle'), message: t('dashboard.announcementFallback') };
}

export function fallbackResources(t: TFunction, origin: string): ResourcesContent {
  const item = (key: 'docs' | 'pricing' | 'servers', url: string) => ({ title: t(`dashboard.resourcesFallback.${key}.title`), description: t(`dashboard.resourcesFallback.${key}.description`), url });
  return { items: [item('servers', `${origin}/#/deployments`), item('pricing', `${origin}/#/pricing`), item('docs', `${origin}/api/v1/docs`)] };
}

/** The built-in welcome block books the call where the deployment says; without a link it only greets. */
export function fallbackWelcome(t: TFunction): WelcomeContent | { message: string; bookingUrl: null } {
  const bookingUrl = clientConfig.callBookingUrl ?? null;
  return { message: t(bookingUrl ? 'dashboard.welcomeMessage' : 'dashboard.welcomeMessageNoBooking'), bookingUrl };
}
