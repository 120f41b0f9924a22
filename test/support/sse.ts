/**
 * A Server-Sent Events client over a real connection (fetch): `app.inject` cannot stream. Parses
 * messages (`event`, `id`, `data`) and comments as they arrive; `next()` waits for the next one.
 */
export interface SseMessage {
  event: string;
  id: string | undefined;
  data: string;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** Next message (comments skipped unless `comments`), or an error after `timeoutMs`. */
  next(opts?: { timeoutMs?: number; comments?: boolean }): Promise<SseMessage>;
  /** Every message received so far and not yet taken by next(). */
  pending(): SseMessage[];
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const abort = new AbortController();
  const res = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const queue: SseMessage[] = [];
  const waiters: (() => void)[] = [];
  let buffer = '';
  let ended = false;
  const wake = () => {
    for (const w of waiters.splice(0)) w();
  };
  const pump = async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let at = buffer.indexOf('\n\n'); at >= 0; at = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const msg: SseMessage = { event: 'message', id: undefined, data: '' };
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) {
              msg.event = 'comment';
              data.push(line.slice(1).trim());
            } else if (line.startsWith('event: ')) msg.event = line.slice(7);
            else if (line.startsWith('id: ')) msg.id = line.slice(4);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          msg.data = data.join('\n');
          queue.push(msg);
        }
        wake();
      }
    } catch {
      // aborted by close()
    } finally {
      ended = true;
      wake();
    }
  };
  void pump();
  return {
    status: res.status,
    headers: res.headers,
    pending: () => queue.filter((m) => m.event !== 'comment'),
    async next({ timeoutMs = 20_000, comments = false } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const i = queue.findIndex((m) => comments || m.event !== 'comment');
        if (i >= 0) return queue.splice(0, i + 1).pop()!;
        if (ended) throw new Error('stream ended');
        const left = deadline - Date.now();
        if (left <= 0) throw new Error('no SSE message in time');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close: () => abort.abort(),
  };
}
