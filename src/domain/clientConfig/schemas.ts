import { z } from 'zod';

/** Runtime configuration the server writes into index.html for the browser. */
export const clientConfigSchema = z.object({
  productName: z.string(),
  sentryDsn: z.string().nullable(),
  /** Google sign-in is offered only when set. */
  googleClientId: z.string().nullable(),
  /** The customer-support chat widget is loaded only when set (SPEC §7 Other). */
  /** Where the dashboard's welcome block books a 30-minute call when the content service has no welcome block. */
  callBookingUrl: z.string().nullable().optional(),
  /** The affiliate program's page, opened externally from the user menu (SPEC §2). */
  affiliateUrl: z.string().nullable().optional(),
  /** How long after DELETE a server is terminated (the confirmation tells it); null when unknown. */
  deletionGraceSeconds: z.number().nullable().optional(),
  intercom: z.object({ appId: z.string(), apiBase: z.string() }).nullable().optional(),
  /** Mails are kept in the development mailbox (no SMTP_URL, not production): the 'check your mail' screens link to it. */
  devMailbox: z.boolean().optional(),
  /** Set at a server's own address: the page is that server's dashboard alone (its id). */
  serverDashboard: z.string().nullable().optional(),
  /** The portal's address, for the way back from a server's own address. */
  portalUrl: z.string().optional(),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;
