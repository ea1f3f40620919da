import SerializerSelector, { type SerializerFactory, type Serializer } from '@fastify/fast-json-stringify-compiler';
import { answerJsonSchema } from './routeSchemas';

/**
 * Answer serialisers (fast-json-stringify, Fastify's own) compiled when first needed instead of all
 * at start: compiling the 200-odd answer schemas took a tenth of a fresh start. After
 * listening, `warm()` compiles the rest a route at a time between requests, so a schema that does
 * not compile still shows soon after start, and the first answers do not pay for it.
 */
export function lazySerializers() {
  const pending = new Set<() => Serializer>();
  const buildSerializer: SerializerFactory = (externalSchemas, options) => {
    const compile = SerializerSelector()(externalSchemas, options);
    return (route) => {
      let serializer: Serializer | undefined;
      const compiled = () => {
        // The route declares its answer with zod: its JSON Schema is made here, once (routeSchemas.ts).
        serializer ??= compile({ ...route, schema: answerJsonSchema(route.schema) });
        pending.delete(compiled);
        return serializer;
      };
      pending.add(compiled);
      return (doc: unknown) => (serializer ?? compiled())(doc);
    };
  };
  return {
    /** For Fastify's `schemaController` option. */
    compilersFactory: { buildSerializer },
    /** Compiles every serialiser not compiled yet, yielding to requests between them. */
    async warm(): Promise<void> {
      for (const compile of pending) {
        compile();
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}
