import type { TFunction } from 'i18next';
import { createContext, createElement, useContext, useMemo, type ReactNode } from 'react';

/**
 * What the product uses of react-i18next (`useTranslation`, `I18nextProvider`, and the
 * `initReactI18next` module ra-i18n-i18next registers), over any translator with i18next's `t`
 * and `exists`: the front door's tiny one (i18n/tiny.ts) or the signed-in apps' i18next
 * (src/fullI18n.ts). `vite.config.ts` and `tsconfig.json` put it in place of react-i18next, whose
 * own code and the i18next it needs would otherwise ride along on every front-door page.
 */
interface Translator {
  t: (key: string, options?: Record<string, unknown>) => string;
  exists: (key: string) => boolean;
  language: string;
}

const KEYS: Translator = { t: (key, options) => (typeof options?.defaultValue === 'string' ? options.defaultValue : key), exists: () => false, language: 'en' };
const TranslatorContext = createContext<Translator | null>(null);
let registered: Translator | null = null;

/** i18next calls `init` with its instance on `use(initReactI18next)`: the default outside any provider. */
export const initReactI18next = {
  type: '3rdParty' as const,
  init(instance: Translator) {
    registered = instance;
  },
};

export function I18nextProvider({ i18n, children }: { i18n: Translator; children?: ReactNode }) {
  return createElement(TranslatorContext.Provider, { value: i18n }, children);
}

export function useTranslation() {
  // With no translator at all, keys answer themselves, as react-i18next's do.
  const i18n = useContext(TranslatorContext) ?? registered ?? KEYS;
  return useMemo(() => {
    // Typed as i18next's, which callers pass on; our keys and options are all it is given.
    const t = ((key: string, options?: Record<string, unknown>) => i18n.t(key, options)) as unknown as TFunction;
    return Object.assign([t, i18n, true] as const, { t, i18n, ready: true });
  }, [i18n]);
}
