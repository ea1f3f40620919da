import { serversEn } from '../i18n/servers';
import { i18n } from './i18n';

// The running-servers strings join the English resources when the first of their screens loads.
if (!i18n.exists('management.project.createTitle')) i18n.addResourceBundle('en', 'translation', serversEn, true, false);
