import { ThemeProvider } from '@mui/material/styles';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createI18n } from '../../i18n';
import '../appI18n';
import { clientConfig } from '../clientConfig';
import { i18n } from '../i18n';
import { appTheme } from '../theme';

/** Renders a widget as the app would: with the theme and the English strings. */
export function renderUi(element: ReactElement) {
  return render(
    <I18nextProvider i18n={i18n}>
      <ThemeProvider theme={appTheme()}>{element}</ThemeProvider>
    </I18nextProvider>,
  );
}

// The server's strings (API error messages among them), for the answers tests make up.
const server = createI18n(clientConfig.productName);

/** The English text of a key, as the screen or the server would write it, for assertions. */
export function en(key: string, options?: Record<string, unknown>): string {
  const text = i18n.t(key, options);
  return text === key ? server.t(key, options) : text;
}
