import { pricingEn } from '../../i18n/pricing';
import { i18n } from '../../src/i18n';

// The pricing strings join the English resources when the pricing page or the wizard loads.
if (!i18n.exists('pricingPage.heading')) i18n.addResourceBundle('en', 'translation', pricingEn, true, false);
