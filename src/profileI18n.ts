import { profileEn } from '../i18n/profile';
import { i18n } from './i18n';

// The profile pages' strings join the English resources when the first profile screen loads.
if (!i18n.exists('profile.account.heading')) i18n.addResourceBundle('en', 'translation', profileEn, true, false);
