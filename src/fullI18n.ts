import { convertRaTranslationsToI18next } from 'ra-i18n-i18next';
import englishMessages from 'ra-language-english';
import { createI18next } from '../i18n/i18next';
import './appI18n';
import { clientConfig } from './clientConfig';
import { i18n } from './i18n';

/**
 * i18next for the react-admin apps (the main app, the analytics dashboards): ra-i18n-i18next needs
 * a real instance. It starts from every bundle the shell's translator holds (the signed-in apps'
 * strings, `src/appI18n.ts`, among them), receives each one added later, and adds react-admin's
 * own strings (ra.*).
 */
export const fullI18n = createI18next(clientConfig.productName, { en: {} });
for (const [lng, tree] of Object.entries(i18n.resources)) fullI18n.addResourceBundle(lng, 'translation', tree, true, true);
i18n.onAdded((lng, ns, bundle, deep, overwrite) => fullI18n.addResourceBundle(lng, ns, bundle, deep, overwrite));
fullI18n.addResourceBundle('en', 'translation', convertRaTranslationsToI18next(englishMessages), true, false);
