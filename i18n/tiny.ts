/**
 * The front door's translator: i18next's lookup over the same resources (`en.ts` and the lazy
 * bundles), without i18next (about 15 kB gzip of every first visit). It does what our strings use
 * and nothing more — nested keys, `{{name}}` interpolation (a name left out stays as written, as
 * i18next leaves it), `_one` / `_other` plurals chosen by `count`, and a missing key answering
 * itself. `tiny.test.ts` renders every string through this and through i18next and compares.
 * The signed-in app loads real i18next (react-admin's translations need it) and keeps it in step.
 */
type Tree = { [key: string]: unknown };
export type TinyOptions = { count?: number; defaultValue?: string } & Record<string, unknown>;
type Added = (lng: string, ns: string, bundle: Tree, deep: boolean, overwrite: boolean) => void;

const plurals = new Intl.PluralRules('en');
const VARIABLE = /{{\s*([^{}]+?)\s*}}/g;

function lookup(tree: unknown, path: string): unknown {
  let node = tree;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Tree)[part];
  }
  return node;
}

function merge(target: Tree, source: Tree, overwrite: boolean): void {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (value && typeof value === 'object' && existing && typeof existing === 'object') merge(existing as Tree, value as Tree, overwrite);
    else if (overwrite || existing === undefined) target[key] = value && typeof value === 'object' ? structuredClone(value) : value;
  }
}

export class TinyI18n {
  readonly language = 'en';
  /** By language, the one namespace (`translation`): what real i18next is given when it loads. */
  readonly resources: Record<string, Tree>;
  readonly #defaults: Record<string, unknown>;
  readonly #listeners = new Set<Added>();

  constructor(resources: Record<string, Tree>, defaultVariables: Record<string, unknown> = {}) {
    this.resources = structuredClone(resources);
    this.#defaults = defaultVariables;
  }

  #find(key: string, count: unknown): string | undefined {
    const tree = this.resources[this.language];
    if (typeof count === 'number') {
      const plural = lookup(tree, `${key}_${plurals.select(count)}`);
      if (typeof plural === 'string') return plural;
    }
    const value = lookup(tree, key);
    return typeof value === 'string' ? value : undefined;
  }

  readonly exists = (key: string): boolean => this.#find(key, undefined) !== undefined;

  readonly t = (key: string, options?: TinyOptions): string => {
    const template = this.#find(key, options?.count) ?? options?.defaultValue ?? key;
    return template.replace(VARIABLE, (whole, name: string) => {
      const value = options && name in options ? options[name] : name.includes('.') && options ? lookup(options, name) : this.#defaults[name];
      return value === undefined ? whole : String(value);
    });
  };

  /** Like i18next's: `deep` merges into what is there, `overwrite` replaces existing strings. */
  addResourceBundle(lng: string, ns: string, bundle: Tree, deep = false, overwrite = false): this {
    const target = (this.resources[lng] ??= {});
    if (deep) merge(target, bundle, overwrite);
    else Object.assign(target, structuredClone(bundle));
    for (const listener of this.#listeners) listener(lng, ns, bundle, deep, overwrite);
    return this;
  }

  /** Bundles added from now on also go to `listener` (real i18next once the signed-in app loads). */
  onAdded(listener: Added): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
