import { ThemeProvider } from '@mui/material/styles';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import '../appI18n';
import { i18n } from '../i18n';
import { theme } from '../theme';

/** Renders a widget as the app would: with the theme and the English strings. */
export function renderUi(element: ReactElement) {
  return render(
    <I18nextProvider i18n={i18n}>
      <ThemeProvider theme={theme}>{element}</ThemeProvider>
    </I18nextProvider>,
  );
}

/** The English text of a key, for assertions. */
export const en = (key: string, options?: Record<string, unknown>) => i18n.t(key, options);
