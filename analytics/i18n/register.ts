import { analyticsEn } from './en';
import { i18n } from '../../src/i18n';

// The dashboard's strings join the English resources when the dashboard area loads.
if (!i18n.exists('analytics.title')) i18n.addResourceBundle('en', 'translation', analyticsEn, true, false);
