/** pino logger. Secrets never reach the log: credentials and bodies that may carry them are redacted. */
import pino, { type Logger } from 'pino';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.token',
  '*.secret',
  '*.password',
  '*.code',
  '*.code_verifier',
  // Chat provider bot token.
  '*.botToken',
  '*.bot_token',
  // Provider secrets (config.webhookSecrets, config.esign.apiKey) if a config object is ever logged.
  'webhookSecrets',
  '*.webhookSecrets',
  '*.apiKey',
  '*.*.apiKey',
  // The rest of the configuration's secrets, should a config object ({config: …}) ever be logged.
  '*.*.botToken',
  '*.smtpUrl',
  '*.secretKey',
  '*.previousSecretKey',
  '*.clientSecret',
  '*.*.clientSecret',
];

/**
 * URLs can carry bearer-equivalent tokens: the guardian portal's path token (`/guardian/<token>`,
 * docs/decisions.md "Registration side") and `token=` query parameters (invitation links). Both are replaced by `[redacted]`.
 */
export function redactUrl(url: string): string {
  return url
    .replace(/(\/guardian\/)[^/?#]+/g, '$1[redacted]')
    .replace(/([?&](?:token|invitation_token|code)=)[^&#]*/gi, '$1[redacted]');
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request serializer, with the URL redacted. */
function serializeRequest(req: LoggedRequest) {
  return { method: req.method, url: redactUrl(req.url ?? ''), host: req.host, remoteAddress: req.ip };
}

/** The process logger (stdout unless a destination is given, e.g. a test's capture stream). */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { req: serializeRequest },
  };
  return destination ? pino(options, destination) : pino(options);
}
