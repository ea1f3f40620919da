import Box from '@mui/material/Box';
import { lazy, Suspense, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { clientConfig } from '../../src/clientConfig';
import type { GoogleSignInProps } from './GoogleSignInButton';

// The button's code (Google's loader, the 'or' divider) loads only where the server has a Google
// client id, and then at once: it is ready long before Google's own script, which draws the button.
// Offline, the row stays away as it does when Google's script is blocked.
type Row = ComponentType<Omit<GoogleSignInProps, 'clientId'>>;
const load = (): Promise<{ default: Row }> =>
  import('./GoogleSignInButton').then(
    (module) => ({ default: module.GoogleSignInButton }),
    () => ({ default: () => null }),
  );
let loading = clientConfig.googleClientId ? load() : null;
const GoogleSignInButton = lazy(() => (loading ??= load()));

/**
 * The Google row of the sign-in and sign-up pages (SPEC §2): nothing without a Google client id;
 * otherwise GoogleSignInButton, with a blank row of its height for the moment its code is on its way.
 */
export function GoogleSignIn(props: Omit<GoogleSignInProps, 'clientId'>) {
  const { t } = useTranslation();
  // Asked at render, not at load: the build's prerender renders the page with and without a client id.
  if (!clientConfig.googleClientId) return null;
  const placeholder = (
    <Box aria-hidden sx={{ mb: 2 }}>
      <Box sx={{ minHeight: 44 }} />
      <Box sx={{ mt: 2, visibility: 'hidden' }}>{t('auth.signIn.or')}</Box>
    </Box>
  );
  return (
    <Suspense fallback={placeholder}>
      <GoogleSignInButton {...props} />
    </Suspense>
  );
}
