/** A real local SMTP server (smtp-server) that records what arrives; it can refuse the next N messages. */
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedEmail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  raw: string;
}

export interface TestSmtp {
  url: string;
  received: ReceivedEmail[];
  /** Refuse the next `n` messages with a transient 451. */
  failNext(n: number): void;
  /** The most SMTP connections that were open at the same time. */
  readonly maxConnections: number;
  waitFor(predicate: (e: ReceivedEmail) => boolean, timeoutMs?: number): Promise<ReceivedEmail>;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const received: ReceivedEmail[] = [];
  let failures = 0;
  let open = 0;
  let maxConnections = 0;
  const server = new SMTPServer({
    onConnect(_session, callback) {
      open += 1;
      maxConnections = Math.max(maxConnections, open);
      callback();
    },
    onClose() {
      open -= 1;
    },
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        if (failures > 0) {
          failures -= 1;
          const err = new Error('Temporary failure, try again later') as Error & { responseCode: number };
          err.responseCode = 451;
          callback(err);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const parsed = await simpleParser(raw);
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: parsed.subject ?? '',
          text: parsed.text ?? '',
          html: typeof parsed.html === 'string' ? parsed.html : '',
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    get maxConnections() {
      return maxConnections;
    },
    failNext(n) {
      failures = n;
    },
    async waitFor(predicate, timeoutMs = 20_000) {
      const started = Date.now();
      for (;;) {
        const found = received.find(predicate);
        if (found) return found;
        if (Date.now() - started > timeoutMs) throw new Error(`No matching email within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
