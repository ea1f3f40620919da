import { appEn } from '../i18n/app';
import { i18n } from './i18n';

// The signed-in apps' strings join the English resources when a react-admin app loads (src/fullI18n.ts).
if (!i18n.exists('nav.dashboard')) i18n.addResourceBundle('en', 'translation', appEn, true, false);
