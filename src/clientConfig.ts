import type { ClientConfig } from './domain/clientConfig/schemas';

const DEFAULTS: ClientConfig = { productName: 'Beacon', sentryDsn: null, googleClientId: null };

/** Runtime configuration the server writes into index.html (falls back in the dev server). */
export function readClientConfig(doc: Document = document): ClientConfig {
  const raw = doc.querySelector('meta[name="client-config"]')?.getAttribute('content');
  if (!raw || raw.startsWith('%')) return DEFAULTS;
  try {
    return { ...DEFAULTS, ...(JSON.parse(raw) as Partial<ClientConfig>) };
  } catch {
    return DEFAULTS;
  }
}

export const clientConfig = typeof document === 'undefined' ? DEFAULTS : readClientConfig();
