import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { clientConfig } from '../../src/clientConfig';
import { loadGoogleIdentity } from './googleIdentity';

export interface GoogleSignInProps {
  mode: 'signIn' | 'signUp';
  /** Called with Google's ID token once the person has chosen their Google account. */
  onCredential: (idToken: string) => void;
  clientId?: string | null;
}

/**
 * The Google button (SPEC §2), rendered by Google Identity Services; shown only when the server
 * is configured with a Google client id and Google's script loads.
 */
export function GoogleSignInButton({ mode, onCredential, clientId = clientConfig.googleClientId }: GoogleSignInProps) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const latest = useRef(onCredential);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    latest.current = onCredential;
  }, [onCredential]);

  useEffect(() => {
    if (!clientId) return;
    let active = true;
    loadGoogleIdentity()
      .then((gsi) => {
        if (!active || !host.current) return;
        gsi.initialize({
          client_id: clientId,
          ux_mode: 'popup',
          context: mode === 'signUp' ? 'signup' : 'signin',
          callback: (response) => {
            if (response.credential) latest.current(response.credential);
          },
        });
        // Google's button takes a pixel width (at most 400); match the form's width.
        const width = Math.min(400, Math.max(200, Math.round(host.current.getBoundingClientRect().width)));
        gsi.renderButton(host.current, { type: 'standard', theme: 'outline', size: 'large', text: mode === 'signUp' ? 'signup_with' : 'signin_with', width, logo_alignment: 'center' });
      })
      // Blocked or offline: the button stays away and email sign-in works as before.
      .catch(() => {
        if (active) setFailed(true);
      });
    return () => {
      active = false;
    };
  }, [clientId, mode]);

  if (!clientId || failed) return null;
  return (
    <Box sx={{ mb: 2 }}>
      <Box ref={host} data-testid="google-button" sx={{ display: 'flex', justifyContent: 'center', minHeight: 44 }} />
      <Divider sx={{ mt: 2 }}>{t('auth.signIn.or')}</Divider>
    </Box>
  );
}
