import type * as AuthForms from './authForms';

/** Resolves in a task of its own (a timer's), after whatever task is running. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

// Starts loading when the first front-door page runs; pages render without waiting for it.
// In steps, each in a task of its own: zod with the shared rules, the auth schemas, the company
// schemas, then the resolvers. Each step's module evaluates what the steps before have not, and
// zod builds every schema as its module runs: on a phone all of it at once was one task of over
// 100 ms, each step alone stays under 50. The steps' chunks come one after another, which only
// matters to a form checked in its first second.
let loaded: typeof AuthForms | null = null;
export const authForms: Promise<typeof AuthForms> = nextTask()
  .then(() => import('../../src/domain/validation'))
  .then(nextTask)
  .then(() => import('../../src/domain/auth/schemas'))
  .then(nextTask)
  .then(() => import('../../src/domain/companies/schemas'))
  .then(nextTask)
  .then(() => import('./authForms'))
  .then((module) => (loaded = module));

/** The validation module when it has arrived (it has by the time any form was checked), else null. */
export const loadedAuthForms = (): typeof AuthForms | null => loaded;
