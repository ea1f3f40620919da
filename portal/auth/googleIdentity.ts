/** The part of Google Identity Services (accounts.google.com/gsi/client) the button uses. */
interface GoogleAccountsId {
  initialize(options: { client_id: string; callback: (response: { credential?: string }) => void; ux_mode?: 'popup'; context?: 'signin' | 'signup' }): void;
  renderButton(parent: HTMLElement, options: { type?: 'standard'; theme?: 'outline'; size?: 'large'; text?: 'signin_with' | 'signup_with'; width?: number; logo_alignment?: 'left' | 'center' }): void;
}

declare global {
  interface Window {
    google?: { accounts?: { id?: GoogleAccountsId } };
  }
}

export const GSI_SCRIPT_URL = 'https://accounts.google.com/gsi/client';

let loading: Promise<GoogleAccountsId> | null = null;

/** Loads the Google script once per page; a failed load can be retried by the next caller. */
export function loadGoogleIdentity(doc: Document = document): Promise<GoogleAccountsId> {
  const ready = () => window.google?.accounts?.id;
  const present = ready();
  if (present) return Promise.resolve(present);
  loading ??= new Promise<GoogleAccountsId>((resolve, reject) => {
    const script = doc.createElement('script');
    script.src = GSI_SCRIPT_URL;
    script.async = true;
    script.onload = () => {
      const id = ready();
      if (id) resolve(id);
      else reject(new Error('Google Identity Services did not start'));
    };
    script.onerror = () => reject(new Error('Google Identity Services could not be loaded'));
    doc.head.appendChild(script);
  }).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}
