import { ThemeProvider } from '@mui/material/styles';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../../src/i18n';
import { appTheme } from '../../src/theme';
import { CardForm, type CheckoutProps } from './CardForm';

/** The local checkout stand-in's card form; mounted by the stand-in adapter in its own root. */
export function StandInCheckout(props: CheckoutProps) {
  return (
    <I18nextProvider i18n={i18n}>
      <ThemeProvider theme={appTheme()}>
        <CardForm {...props} />
      </ThemeProvider>
    </I18nextProvider>
  );
}
