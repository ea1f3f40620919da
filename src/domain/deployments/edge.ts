import { z } from 'zod';

/**
 * The TLS edge (edge/Caddyfile) in front of servers' own addresses: its `ask` call, and what the
 * server page says of a server's certificate.
 */

/** Caddy's on-demand TLS asks `GET <ask URL>?domain=<name>` before it obtains a certificate for a name. */
export const edgeAskQuerySchema = z.object({
  domain: z.string().min(1).max(253),
  /** EDGE_ASK_TOKEN, when the operator set one: part of the ask URL in the Caddyfile. */
  token: z.string().max(200).optional(),
});
export type EdgeAskQuery = z.infer<typeof edgeAskQuerySchema>;

/** 200: the edge may obtain (and serve) a certificate for this name. */
export const edgeAskAnswerSchema = z.object({ domain: z.string() });
export type EdgeAskAnswer = z.infer<typeof edgeAskAnswerSchema>;

/**
 * A server's certificate as the edge serves it, read by a TLS handshake with the edge for the
 * server's name: `issued` (its issuer and validity), `expired`, `none` (the edge has none for the
 * name yet: it is being obtained, or the name is not verified), `plain_http` (the customer removed
 * SSL: the address is served over http only), `no_edge` (no edge is configured, EDGE_TLS_ADDRESS),
 * `unreachable` (the edge did not answer).
 */
export const CERTIFICATE_STATES = ['issued', 'expired', 'none', 'plain_http', 'no_edge', 'unreachable'] as const;
export type CertificateState = (typeof CERTIFICATE_STATES)[number];

export const serverCertificateSchema = z.object({
  state: z.enum(CERTIFICATE_STATES),
  /** The name the handshake asked for (the server's address), null when the server has none yet. */
  domain: z.string().nullable(),
  /** The issuing CA's name (its organisation, else its common name), for `issued` and `expired`. */
  issuer: z.string().nullable(),
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
  checkedAt: z.string(),
});
export type ServerCertificate = z.infer<typeof serverCertificateSchema>;
