import i18next, { type i18n, type Module } from 'i18next';
import { en } from './en';

export { en };

/** Every language's messages, by language code (English first; the others follow its keys). */
export const messages = { en } as const;

/**
 * A ready i18next instance with the English resources; `product` is interpolated everywhere.
 * The browser passes react-i18next as a module; the server uses it bare.
 */
export function createI18n(productName: string, modules: Module[] = []): i18n {
  const instance = i18next.createInstance();
  for (const module of modules) instance.use(module);
  void instance.init({
    lng: 'en',
    fallbackLng: 'en',
    resources: Object.fromEntries(Object.entries(messages).map(([lng, translation]) => [lng, { translation }])),
    initImmediate: false,
    interpolation: { escapeValue: false, defaultVariables: { product: productName } },
    returnNull: false,
    // Resources are bundled, so nothing ever needs to suspend while translations load.
    react: { useSuspense: false },
  });
  return instance;
}
