import i18next, { type i18n } from 'i18next';
import { en } from './en';

export { en };

/** A ready i18next instance with the English resources; `product` is interpolated everywhere. */
export function createI18n(productName: string): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: 'en',
    fallbackLng: 'en',
    resources: { en: { translation: en } },
    initImmediate: false,
    interpolation: { escapeValue: false, defaultVariables: { product: productName } },
    returnNull: false,
  });
  return instance;
}
