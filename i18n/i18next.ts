import i18next, { type i18n, type Module, type Resource } from 'i18next';

/**
 * A ready i18next instance over `resources` (by language, the `translation` namespace's tree);
 * `product` is interpolated everywhere. The browser passes react-i18next as a module; the server
 * uses it bare.
 */
export function createI18next(productName: string, resources: Record<string, object>, modules: Module[] = []): i18n {
  const instance = i18next.createInstance();
  for (const module of modules) instance.use(module);
  void instance.init({
    lng: 'en',
    fallbackLng: 'en',
    resources: Object.fromEntries(Object.entries(resources).map(([lng, translation]) => [lng, { translation }])) as Resource,
    initImmediate: false,
    interpolation: { escapeValue: false, defaultVariables: { product: productName } },
    returnNull: false,
    // Resources are bundled, so nothing ever needs to suspend while translations load.
    react: { useSuspense: false },
  });
  return instance;
}
