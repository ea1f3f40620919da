import swagger from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** Routes outside the API (the web app, its assets) and the docs' own routes carry no contract. */
export const API_PREFIX = '/api/v1';
const UNDOCUMENTED = new Set([`${API_PREFIX}/openapi.json`, `${API_PREFIX}/docs`, `${API_PREFIX}/docs/`, `${API_PREFIX}/docs/js/scalar.js`]);

const isZod = (value: unknown): value is z.ZodType => value instanceof z.ZodType;

/** JSON Schema of a zod schema, as fast-json-stringify and OpenAPI 3.1 read it. */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

type ResponseEntry = z.ZodType | { description?: string; content: Record<string, { schema: z.ZodType | Record<string, unknown> }> };

/**
 * Answers are declared with zod but serialised by Fastify's own compiler (fast-json-stringify)
 * from their JSON Schema: a declared answer is written field by field instead of by
 * JSON.stringify, and carries only the declared fields. Downloads declare each content type.
 * The routes keep the zod schemas: converting them all at registration took a sixth of a second of
 * every start, so the serialiser converts each when it compiles it (`answerJsonSchema`, see
 * lazySerializers.ts) and the OpenAPI document when it is first asked for.
 */
export function answerJsonSchema(schema: unknown): unknown {
  return isZod(schema) ? toJsonSchema(schema, 'output') : schema;
}

function documentedResponses(response: Record<string, ResponseEntry>) {
  return Object.fromEntries(
    Object.entries(response).map(([status, entry]) => {
      if (isZod(entry)) return [status, { description: entry.description ?? 'Answer', ...toJsonSchema(entry, 'output') }];
      if (!('content' in entry)) return [status, entry];
      const content = Object.fromEntries(Object.entries(entry.content).map(([type, { schema }]) => [type, { schema: answerJsonSchema(schema) }]));
      return [status, { ...entry, content }];
    }),
  );
}

/** Why an API route is not acceptable as declared, or null: every route states its contract. */
export function missingSchema(route: Pick<RouteOptions, 'method' | 'url' | 'schema'>): string | null {
  const schema = route.schema ?? {};
  const methods = [route.method].flat();
  if (!schema.response) return 'response';
  if (route.url.includes(':') && !schema.params) return 'params';
  if (methods.some((m) => m === 'POST' || m === 'PUT' || m === 'PATCH') && !schema.body) return 'body';
  return null;
}

/** One API route as registered: what tests walk to cover every route of an area. */
export interface ApiRoute {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api/v1 route, in registration order (the route table, for tests and tools). */
    apiRoutes: readonly ApiRoute[];
  }
}

/**
 * Route contracts: request parts are validated with their zod schemas (errors answer
 * VALIDATION_FAILED, see errors.ts), answers serialised from their schemas, and the OpenAPI
 * document built from the same declarations. An API route without its schemas fails at start.
 */
export async function registerRouteSchemas(app: FastifyInstance, info: { title: string; version: string }) {
  app.setValidatorCompiler(validatorCompiler);
  const routes: ApiRoute[] = [];
  app.decorate('apiRoutes', routes);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(API_PREFIX) && route.method !== 'HEAD') for (const method of [route.method].flat()) routes.push({ method, url: route.url });
    if (!route.url.startsWith(API_PREFIX) || UNDOCUMENTED.has(route.url) || route.method === 'HEAD') return;
    const missing = missingSchema(route);
    if (missing) throw new Error(`${[route.method].flat().join(',')} ${route.url} declares no ${missing} schema`);
  });

  await app.register(swagger, {
    openapi: { openapi: '3.1.0', info: { title: `${info.title} API`, version: info.version } },
    transform: ({ schema, url }) => {
      if (!url.startsWith(API_PREFIX) || UNDOCUMENTED.has(url) || !schema) return { schema: { ...schema, hide: true }, url };
      const parts = Object.fromEntries(
        (['body', 'querystring', 'params', 'headers'] as const).flatMap((part) => (isZod(schema[part]) ? [[part, toJsonSchema(schema[part], 'input')]] : [])),
      );
      const response = schema.response ? { response: documentedResponses(schema.response as Record<string, ResponseEntry>) } : {};
      return { schema: { ...schema, ...parts, ...response }, url };
    },
  });
}
