import { toolsEn } from '../../i18n/tools';
import { i18n } from '../../src/i18n';

// The tools pages' strings join the English resources when the first tools page loads.
if (!i18n.exists('tools.review.heading')) i18n.addResourceBundle('en', 'translation', toolsEn, true, false);
