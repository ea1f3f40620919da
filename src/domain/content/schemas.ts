import { z } from 'zod';

/** Marketing content blocks read from the content service (SPEC §3 content entities, §7). */
export const CONTENT_BLOCKS = ['prelogin', 'welcome', 'resources', 'features', 'core-features', 'plugin-features', 'announcement'] as const;
export type ContentBlock = (typeof CONTENT_BLOCKS)[number];

export const brandSchema = z.object({
  logo: z.string().min(1),
  size: z.enum(['small', 'medium', 'large']).default('medium'),
  alt: z.string().min(1),
});
export type Brand = z.infer<typeof brandSchema>;

export const preloginContentSchema = z.object({
  title: z.string().min(1),
  subtitle: z.string().min(1),
  brandsHeader: z.string().min(1),
  brands: z.array(brandSchema).min(1),
});
export type PreloginContent = z.infer<typeof preloginContentSchema>;

const httpsUrl = z.url({ protocol: /^https?$/ }).max(2000);

/** The dashboard's announcement (SPEC §7 Other: dashboard announcement). */
export const announcementContentSchema = z.object({
  title: z.string().min(1).max(200),
  message: z.string().min(1).max(2000),
  link: z.object({ label: z.string().min(1).max(100), url: httpsUrl }).optional(),
});
export type AnnouncementContent = z.infer<typeof announcementContentSchema>;

/** The dashboard's resources: links to guides and docs. */
export const resourcesContentSchema = z.object({
  items: z.array(z.object({ title: z.string().min(1).max(200), description: z.string().max(500).default(''), url: httpsUrl })).min(1).max(12),
});
export type ResourcesContent = z.infer<typeof resourcesContentSchema>;

/** The dashboard's welcome block with its 30-minute call booking (SPEC §9). */
export const welcomeContentSchema = z.object({
  title: z.string().min(1).max(200).optional(),
  message: z.string().min(1).max(2000),
  bookingUrl: httpsUrl,
  bookingLabel: z.string().min(1).max(100).optional(),
});
export type WelcomeContent = z.infer<typeof welcomeContentSchema>;

/** Blocks whose shape the product relies on are validated; the others pass through as JSON. */
export const contentSchemas: Partial<Record<ContentBlock, z.ZodType>> = {
  prelogin: preloginContentSchema,
  announcement: announcementContentSchema,
  resources: resourcesContentSchema,
  welcome: welcomeContentSchema,
};
