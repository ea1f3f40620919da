import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A react-hook-form resolver taken from a module that is still loading. Front-door pages start
 * loading their validation (zod and the shared schemas) when they run and render without waiting
 * for it: the first check waits for the module, and the rules stay the shared ones.
 */
export function lazyResolver<M, I extends FieldValues, C, O>(module: Promise<M>, pick: (loaded: M) => Resolver<I, C, O>): Resolver<I, C, O> {
  return async (values, context, options) => pick(await module)(values, context, options);
}
