import { describe, expect, it } from 'vitest';
import { adminEn } from './admin';
import { analyticsEn } from '../analytics/i18n/en';
import { billingEn } from './billing';
import { createI18n, en } from './index';
import { managementEn } from './management';
import { profileEn } from './profile';
import { serversEn } from './servers';
import { TinyI18n } from './tiny';
import { toolsEn } from './tools';
import { wizardEn } from './wizard';

const BUNDLES = [wizardEn, billingEn, managementEn, profileEn, serversEn, toolsEn, analyticsEn, adminEn];

function leaves(tree: object, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]): [string, string][] => (typeof value === 'string' ? [[prefix + key, value]] : leaves(value as object, `${prefix}${key}.`)));
}

/** Every string the product has, so the translator is right wherever it is used. */
function both() {
  const real = createI18n('Beacon');
  const tiny = new TinyI18n({ en }, { product: 'Beacon' });
  for (const bundle of BUNDLES) {
    real.addResourceBundle('en', 'translation', bundle, true, false);
    tiny.addResourceBundle('en', 'translation', bundle, true, false);
  }
  return { real, tiny };
}

describe('the tiny translator', () => {
  const { real, tiny } = both();
  const all = [en, ...BUNDLES].flatMap((bundle) => leaves(bundle));
  // The keys callers use: a plural's base key rather than its `_one` / `_other` forms.
  const keys = [...new Set(all.map(([key]) => key.replace(/_(one|other|zero)$/, '')))];

  it('knows every string of every bundle', () => {
    expect(all.length).toBeGreaterThan(500);
  });

  it('renders every key exactly as i18next does: no options, every variable given, and counts 0, 1, 2, 21', () => {
    for (const key of keys) {
      const names = [...new Set(all.filter(([k]) => k === key || k.startsWith(`${key}_`)).flatMap(([, text]) => [...text.matchAll(/{{\s*([^{},\s]+)\s*}}/g)].map((m) => m[1] ?? '')))];
      const filled = Object.fromEntries(names.map((name) => [name, `<${name}>`]));
      expect(tiny.t(key), key).toBe(real.t(key));
      expect(tiny.t(key, filled), key).toBe(real.t(key, filled));
      for (const count of [0, 1, 2, 21]) expect(tiny.t(key, { ...filled, count }), `${key} ${count}`).toBe(real.t(key, { ...filled, count }));
      expect(tiny.exists(key), key).toBe(real.exists(key));
    }
  });

  it('answers a missing key, free text and a default value as i18next does', () => {
    for (const key of ['nope.missing', 'Something went wrong.', 'Error: no such thing', 'errors.NOT_A_CODE']) {
      expect(tiny.t(key)).toBe(real.t(key));
      expect(tiny.exists(key)).toBe(real.exists(key));
    }
    expect(tiny.t('nope.missing', { defaultValue: 'Fallback {{product}}' })).toBe(real.t('nope.missing', { defaultValue: 'Fallback {{product}}' }));
  });

  it('keeps strings already there when a bundle is added without overwrite, and tells listeners', () => {
    const fresh = new TinyI18n({ en: { a: { b: 'kept' } } });
    const added: string[] = [];
    fresh.onAdded((lng, ns) => added.push(`${lng}/${ns}`));
    fresh.addResourceBundle('en', 'translation', { a: { b: 'new', c: 'added' } }, true, false);
    expect([fresh.t('a.b'), fresh.t('a.c'), added]).toEqual(['kept', 'added', ['en/translation']]);
  });
});
