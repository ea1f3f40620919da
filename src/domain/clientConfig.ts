import { z } from 'zod';

/** Runtime configuration the server writes into index.html for the browser. */
export const clientConfigSchema = z.object({
  productName: z.string(),
  sentryDsn: z.string().nullable(),
  /** Google sign-in is offered only when set. */
  googleClientId: z.string().nullable(),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;
