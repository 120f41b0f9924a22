/**
 * Request validation (one Ajv per request part). Query strings and path parameters arrive as text,
 * so their values are coerced to the schema's types (`?limit=5` → 5); JSON bodies are NOT coerced:
 * `{"email": ["a@b.c"]}` where a string is expected is a 422, not silently accepted.
 * Unknown body fields are errors (schemas say `additionalProperties: false`), never dropped.
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

export function registerValidation(app: FastifyInstance): void {
  const bodyAjv = makeAjv(false);
  const textAjv = makeAjv('array');
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as FastifySchema & object),
  );
}
