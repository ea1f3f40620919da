/**
 * The customer-support chat widget (SPEC §7 Other): booted with app id, api base, email,
 * createdAt, name and the user hash the API signs. Nothing is loaded unless an app id is set.
 */
export interface ChatIdentity {
  email: string;
  name: string;
  /** Unix seconds, as the widget wants it. */
  createdAt: number;
  userHash: string;
  userId: string;
}

export interface ChatSettings {
  app_id: string;
  api_base: string;
  email: string;
  name: string;
  created_at: number;
  user_hash: string;
  user_id: string;
}

type ChatCommand = (command: string, settings?: ChatSettings) => void;
type ChatWindow = Window & { Intercom?: ChatCommand & { q?: unknown[][] } };

export const chatScriptUrl = (appId: string) => `https://widget.intercom.io/widget/${encodeURIComponent(appId)}`;

export function chatSettings(config: { appId: string; apiBase: string }, who: ChatIdentity): ChatSettings {
  return { app_id: config.appId, api_base: config.apiBase, email: who.email, name: who.name, created_at: who.createdAt, user_hash: who.userHash, user_id: who.userId };
}

/**
 * Boots the widget: a queue stands in for it until its script arrives (the vendor's own pattern),
 * and the script is added once per page. Returns the shutdown for sign-out.
 */
export function bootSupportChat(config: { appId: string; apiBase: string }, who: ChatIdentity, win: ChatWindow = window): () => void {
  if (!win.Intercom) {
    const queue: unknown[][] = [];
    const stub = ((...args: unknown[]) => void queue.push(args)) as ChatCommand & { q?: unknown[][] };
    stub.q = queue;
    win.Intercom = stub;
  }
  const src = chatScriptUrl(config.appId);
  if (!win.document.querySelector(`script[src="${src}"]`)) {
    const script = win.document.createElement('script');
    script.async = true;
    script.src = src;
    win.document.head.appendChild(script);
  }
  win.Intercom('boot', chatSettings(config, who));
  return () => win.Intercom?.('shutdown');
}
