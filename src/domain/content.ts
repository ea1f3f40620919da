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

/** Blocks whose shape the product relies on are validated; the others pass through as JSON. */
export const contentSchemas: Partial<Record<ContentBlock, z.ZodType>> = {
  prelogin: preloginContentSchema,
};
