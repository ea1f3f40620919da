import { initReactI18next } from 'react-i18next';
import { en } from '../i18n/en';
import { TinyI18n } from '../i18n/tiny';
import { clientConfig } from './clientConfig';

/**
 * The browser's translator: the tiny one (i18n/tiny.ts) over the English resources, so the front
 * door loads no i18next. Screens add their bundles to it; the signed-in apps' i18next
 * (src/fullI18n.ts) starts from what it holds and receives every bundle added after.
 */
export const i18n = new TinyI18n({ en }, { product: clientConfig.productName });
// The default outside any provider, as react-i18next's registered instance was.
initReactI18next.init(i18n);
