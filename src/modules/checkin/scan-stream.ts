/**
 * Live scan feed fan-out (GET /events/{e}/scans/stream). One poller per event per process, shared by
 * every client of that event: each tick reads the feed (scan-feed.repo.ts) once, from the smallest
 * cursor among its clients, and hands each client the entries after its own cursor. A client that
 * resumes from an old `Last-Event-ID` therefore just pulls the shared cursor back until it has
 * caught up (replay from the database, then live), with no separate replay path to race with.
 * Several processes each poll the same durable table, so every process sees every change.
 */
import type { Tx } from '../../db/client.js';
import { type FeedEntry, readFeed } from './scan-feed.repo.js';

/** Entries read per query; a full page is followed at once by the next. */
const PAGE = 500;

export interface StreamClient {
  /** Last cursor delivered (or skipped by the filter) to this client. */
  cursor: string;
  /** Only entries of this scan context, when set. */
  scanContextId?: number;
  /** Writes one SSE message. */
  send(entry: FeedEntry): void;
}

interface EventFeed {
  clients: Set<StreamClient>;
  /** Clients that joined during a poll: added before the next one, so no entry is skipped. */
  joining: Set<StreamClient>;
  timer: NodeJS.Timeout;
  polling: boolean;
}

export interface StreamLog {
  error(obj: unknown, msg: string): void;
}

export class ScanStreamHub {
  private readonly feeds = new Map<number, EventFeed>();

  constructor(
    private readonly db: Tx,
    private readonly pollMs: number,
    private readonly log: StreamLog,
  ) {}

  /** Adds a client of the event's feed; returns the function that removes it. */
  subscribe(eventId: number, client: StreamClient): () => void {
    let feed = this.feeds.get(eventId);
    if (!feed) {
      const timer = setInterval(() => void this.poll(eventId), this.pollMs);
      timer.unref();
      feed = { clients: new Set(), joining: new Set(), timer, polling: false };
      this.feeds.set(eventId, feed);
    }
    feed.joining.add(client);
    void this.poll(eventId);
    return () => this.unsubscribe(eventId, client);
  }

  /** Number of clients per event (diagnostics and tests). */
  clientCount(eventId: number): number {
    const feed = this.feeds.get(eventId);
    return feed ? feed.clients.size + feed.joining.size : 0;
  }

  /** Number of clients of every event together (metrics). */
  totalClients(): number {
    let total = 0;
    for (const feed of this.feeds.values()) total += feed.clients.size + feed.joining.size;
    return total;
  }

  /** Stops every poller (process shutdown). */
  close(): void {
    for (const feed of this.feeds.values()) clearInterval(feed.timer);
    this.feeds.clear();
  }

  private unsubscribe(eventId: number, client: StreamClient): void {
    const feed = this.feeds.get(eventId);
    if (!feed) return;
    feed.clients.delete(client);
    feed.joining.delete(client);
    if (feed.clients.size === 0 && feed.joining.size === 0) {
      clearInterval(feed.timer);
      this.feeds.delete(eventId);
    }
  }

  private async poll(eventId: number): Promise<void> {
    const feed = this.feeds.get(eventId);
    if (!feed || feed.polling) return;
    feed.polling = true;
    try {
      for (;;) {
        for (const c of feed.joining) feed.clients.add(c);
        feed.joining.clear();
        if (feed.clients.size === 0) return;
        let from: string | undefined;
        for (const c of feed.clients) if (from === undefined || c.cursor < from) from = c.cursor;
        const entries = await readFeed(this.db, eventId, from!, PAGE);
        for (const entry of entries) {
          for (const c of feed.clients) {
            if (entry.cursor <= c.cursor) continue;
            c.cursor = entry.cursor;
            if (c.scanContextId === undefined || c.scanContextId === entry.scanContextId) c.send(entry);
          }
        }
        if (entries.length < PAGE && feed.joining.size === 0) return;
      }
    } catch (error) {
      this.log.error({ err: error, eventId }, 'scan stream poll failed; retrying on the next tick');
    } finally {
      feed.polling = false;
    }
  }
}
