/**
 * Response serializers (fast-json-stringify, Fastify's default), compiled once per response schema
 * per process. Fastify compiles a serializer for every route's response schema when an app is
 * built; the route schemas are module constants, so a second app in the same process (the test
 * suite builds one per test file) reuses them instead of generating the same code again (~0.1 s of
 * CPU per app). Muster registers no shared schemas (`addSchema`) and passes no serializer options,
 * so a compiled serializer depends on its schema object alone; with either present the default
 * compiler runs uncached.
 */
import SerializerSelector from '@fastify/fast-json-stringify-compiler';

type Factory = SerializerSelector.SerializerFactory;
type Serializer = SerializerSelector.Serializer;

const selector = SerializerSelector();
const compiled = new WeakMap<object, Serializer>();

/** `schemaController.compilersFactory.buildSerializer` for `Fastify({...})`. */
export const buildSerializer: Factory = (externalSchemas, options) => {
  const compile = selector(externalSchemas, options);
  const empty = (value: unknown) => value === undefined || Object.keys(value as object).length === 0;
  if (!empty(externalSchemas) || !empty(options)) return compile;
  return (route) => {
    const schema = route.schema;
    if (typeof schema !== 'object' || schema === null) return compile(route);
    let serializer = compiled.get(schema);
    if (!serializer) {
      serializer = compile(route);
      compiled.set(schema, serializer);
    }
    return serializer;
  };
};
