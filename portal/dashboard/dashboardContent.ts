import type { TFunction } from 'i18next';
import { clientConfig } from '../../src/clientConfig';
import type { AnnouncementContent, ResourcesContent, WelcomeContent } from '../../src/domain/content/schemas';

/** The built-in dashboard blocks, shown when the content service has none (`dataProvider/content`). */
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
