import SerializerSelector, { type Options } from '@fastify/fast-json-stringify-compiler';

type SerializerCompiler = SerializerSelector.SerializerCompiler;
type Serializer = SerializerSelector.Serializer;

/**
 * Fastify compiles a JSON serializer (fast-json-stringify) for every response schema of every route each
 * time an app is built. The developer and user APIs have many, and a profile put it at about 40 % of
 * building the app. The same schema, with the same shared schemas and options, always compiles to the same
 * serializer (a pure function), so a process compiles each one once: a worker builds one app, but the test
 * suite builds a few hundred. Given to Fastify as `schemaController.compilersFactory.buildSerializer`.
 */
const compiled = new Map<string, Serializer>();
const select = SerializerSelector();

export function buildSerializer(externalSchemas?: unknown, options?: Options): SerializerCompiler {
  const compile = select(externalSchemas, options);
  const context = JSON.stringify([externalSchemas ?? null, options ?? null]);
  return (route) => {
    const key = `${context}\n${JSON.stringify(route.schema ?? null)}`;
    let serialize = compiled.get(key);
    if (!serialize) {
      serialize = compile(route);
      compiled.set(key, serialize);
    }
    return serialize;
  };
}
