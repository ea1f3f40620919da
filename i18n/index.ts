import type { i18n, Module } from 'i18next';
import { appEn } from './app';
import { en as frontDoorEn } from './en';
import { createI18next } from './i18next';
import { pricingEn } from './pricing';
import { serverEn } from './serverStrings';

type Tree = { readonly [key: string]: unknown };

/** Deep merge of string trees; two bundles never give the same key. */
function mergeBundles(...bundles: Tree[]): Tree {
  const into = (target: Record<string, unknown>, source: Tree, path: string) => {
    for (const [key, value] of Object.entries(source)) {
      const existing = target[key];
      if (typeof value === 'object' && value !== null) into((target[key] ??= {}) as Record<string, unknown>, value as Tree, `${path}${key}.`);
      else if (existing !== undefined) throw new Error(`i18n: ${path}${key} is given twice`);
      else target[key] = value;
    }
  };
  const merged: Record<string, unknown> = {};
  for (const bundle of bundles) into(merged, bundle, '');
  return merged;
}

/**
 * Every English string of the product: the front door's (`en.ts`), the pricing page's and the
 * wizard's with the pricing engine's refusals (`pricing.ts`, which the server says too), the
 * signed-in apps' (`app.ts`) and those only the server renders (`serverStrings.ts`). The screens'
 * own bundles (`wizard.ts`, `billing.ts`...) join in the browser when their screen loads.
 */
export const en = mergeBundles(frontDoorEn, pricingEn, appEn, serverEn) as typeof frontDoorEn & typeof pricingEn & typeof appEn & typeof serverEn;

/** Every language's messages, by language code (English first; the others follow its keys). */
export const messages = { en } as const;

/** The server's i18next: every string of `messages`, `product` interpolated everywhere. */
export function createI18n(productName: string, modules: Module[] = []): i18n {
  return createI18next(productName, messages, modules);
}
