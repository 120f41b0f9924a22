/**
 * The Fastify instance route modules register on: TypeBox schemas type `request.body`, `params`
 * and `query` (@fastify/type-provider-typebox), so handlers read what validation checked without
 * casts. A route with `attachValidation: true` (it answers 404/403 before 422 itself) must treat
 * its body as `unknown` whatever the type says: validation may have failed.
 */
import type { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';

export type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** `app` with the TypeBox type provider (types only: validation is set up by http/validation.ts). */
export function typed(app: FastifyInstance): Api {
  return app.withTypeProvider<TypeBoxTypeProvider>();
}

/**
 * Sends a body built as JSON text in SQL (the hot list endpoints; architecture "may build their
 * JSON in SQL"): the route's response schema describes it, but the text is sent as is.
 */
export function sendJsonText(reply: FastifyReply, text: string | Readable): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}

/**
 * Sends a streamed body (a file export, a JSON list read in batches) that the route's response
 * schema describes but that is produced as bytes, not as the schema's object.
 */
export function sendStream(reply: FastifyReply, body: Readable): FastifyReply {
  return reply.send(body);
}
