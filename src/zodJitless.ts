// Our CSP forbids eval. Unless zod is told `jitless` before its first object schema is built, it
// probes with `new Function`, and the browser reports the probe as a CSP violation (Lighthouse best
// practices). zod keeps that setting on this global (zod/v4/core `globalConfig`); setting it here
// rather than through `config()` keeps zod itself out of the entry chunk. Proved by
// src/zodJitless.test.ts.
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };
export {};
