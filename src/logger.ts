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
  // Chat provider bot token (issue 6).
  '*.botToken',
  '*.bot_token',
  // Provider secrets (config.webhookSecrets, config.esign.apiKey) if a config object is ever logged.
  'webhookSecrets',
  '*.webhookSecrets',
  '*.apiKey',
  '*.*.apiKey',
];

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
}
