/**
 * The one error handler (architecture): every error leaves as `{error, ...extra}`. Validation →
 * 422 (also text PostgreSQL cannot store, e.g. NUL characters), malformed JSON or wrong content type → 400, too large → 413, unknown route → 404, anything
 * unexpected → 500 with a generic message (details only in the log).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, httpStatusOf, isBadTextError } from '../lib/errors.js';

function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const where = error.validationContext ?? 'request';
  const path = first.instancePath ? first.instancePath.replace(/^\//, '').replaceAll('/', '.') : '';
  const params = first.params as Record<string, unknown> | undefined;
  if (first.keyword === 'required' && params?.missingProperty)
    return `${where}.${String(params.missingProperty)} is required`;
  if (first.keyword === 'additionalProperties' && params?.additionalProperty)
    return `${where}${path ? `.${path}` : ''}: unknown field ${String(params.additionalProperty)}`;
  return `${where}${path ? `.${path}` : ''} ${first.message ?? 'is invalid'}`;
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(jsonErrorHandler);
  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ error: 'Not found' }));
}

/** The API's error answer `{error, ...extra}`; also used by JSON routes inside the web pages' scope. */
export function jsonErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof ApiError) {
    return reply.status(error.statusCode).send({ error: error.message, ...error.extra });
  }
  if (error.validation) {
    // A malformed path id names no record: 404 (docs/decisions.md "Status codes and check order"), not a validation error.
    if (error.validationContext === 'params') return reply.status(404).send({ error: 'Not found' });
    return reply.status(422).send({ error: validationMessage(error) });
  }
  const code = error.code ?? '';
  const status = httpStatusOf(error);
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') {
    return reply
      .status(status)
      .send({ error: 'Unsupported or malformed request body; send application/json' });
  }
  if (status === 413) return reply.status(status).send({ error: 'Request body is too large' });
  if (status === 400 && (error instanceof SyntaxError || code.startsWith('FST_ERR_CTP'))) {
    return reply.status(status).send({ error: 'Malformed JSON in request body' });
  }
  if (isBadTextError(error)) {
    return reply
      .status(status)
      .send({ error: 'Text fields cannot contain NUL characters or invalid byte sequences' });
  }
  if (status < 500) return reply.status(status).send({ error: error.message });
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send({ error: 'Internal server error' });
}
