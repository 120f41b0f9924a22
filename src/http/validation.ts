/**
 * Request validation (one Ajv per request part). Query strings and path parameters arrive as text,
 * so their values are coerced to the schema's types (`?limit=5` → 5); JSON bodies are NOT coerced:
 * `{"email": ["a@b.c"]}` where a string is expected is a 422, not silently accepted.
 * Unknown body fields are errors (schemas say `additionalProperties: false`), never dropped.
 *
 * The two Ajv instances belong to the process, not to one app: Ajv keeps each compiled validator
 * keyed by its schema object, and the route schemas are module constants, so a second app built in
 * the same process (the test suite builds one per test file) reuses the compiled validators instead
 * of generating and compiling them again (~0.25 s of CPU per app). The options never differ
 * between apps, and a compiled validator is a pure function of its schema.
 */
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';

function makeAjv(coerceTypes: Options['coerceTypes']): Ajv {
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
  });
  addFormats.default(ajv);
  return ajv;
}

let compilers: { body: Ajv; text: Ajv } | undefined;

export function registerValidation(app: FastifyInstance): void {
  compilers ??= { body: makeAjv(false), text: makeAjv('array') };
  const { body, text } = compilers;
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? body : text).compile(schema as FastifySchema & object),
  );
}
