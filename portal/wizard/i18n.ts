import { wizardEn } from '../../i18n/wizard';
import { i18n } from '../../src/i18n';
// The wizard shows prices: the pricing page's strings and the engine's refusals come with it.
import '../pricing/i18n';

// The wizard's strings join the English resources when the first wizard screen loads.
if (!i18n.exists('wizard.titleCreate')) i18n.addResourceBundle('en', 'translation', wizardEn, true, false);
