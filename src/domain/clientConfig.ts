import { z } from 'zod';

/** Runtime configuration the server writes into index.html for the browser. */
export const clientConfigSchema = z.object({
  productName: z.string(),
  sentryDsn: z.string().nullable(),
  /** Google sign-in is offered only when set. */
  googleClientId: z.string().nullable(),
  /** The customer-support chat widget is loaded only when set (SPEC §7 Other). */
  intercom: z.object({ appId: z.string(), apiBase: z.string() }).nullable().optional(),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;
