/**
 * Outgoing email over SMTP with nodemailer (SMTP_URL), or — when no SMTP server is configured, as
 * in the embedded quick start — written as .eml files to the outbox folder, so the demo works
 * without SMTP. Bodies are never logged (they may carry sign-in codes).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface OutgoingEmail {
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers, e.g. `X-PM-Metadata-email_log_id` (echoed back by the provider's webhooks). */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: OutgoingEmail): Promise<{ messageId: string }>;
  close(): void;
  readonly kind: 'smtp' | 'outbox';
}

/**
 * The SMTP URL with nodemailer's connection pool on (`pool=true`: up to 5 reused connections, so the
 * worker's parallel sends do not each open a connection), unless the URL already says `pool=`.
 */
export function pooled(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
  return url.toString();
}

export function createMailer(opts: { smtpUrl?: string; outboxDir: string; log: Logger }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(pooled(opts.smtpUrl));
    return {
      kind: 'smtp',
      async send(message) {
        const info = await transport.sendMail(message);
        return { messageId: info.messageId };
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(message) {
      const info = await transport.sendMail(message);
      mkdirSync(opts.outboxDir, { recursive: true });
      const file = path.join(
        opts.outboxDir,
        `${Date.now()}-${info.messageId.replace(/[^A-Za-z0-9.-]/g, '')}.eml`,
      );
      writeFileSync(file, info.message as Buffer);
      opts.log.info(
        { to: message.to, subject: message.subject, file },
        'email written to outbox (no SMTP_URL configured)',
      );
      return { messageId: info.messageId };
    },
    close: () => {},
  };
}
