/**
 * The floor (quality.md "Performance"): close to the physical limit of each endpoint. Its bytes
 * are read from one table of precomputed participant JSON text (sql.ts FLOOR_TABLE, one row per
 * registration, filled from the endpoint's own serializer) and streamed by a bare `node:http`
 * handler over a plain `pg` Pool: no JSON work in the database, no framework, no authentication.
 * It compresses like the app when asked (gzip, or br at the same quality). Paths mirror the API so
 * the same load options hit both servers. The endpoint/floor ratio is the cost of everything else.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type pg from 'pg';
import { FLOOR_TABLE, type Statement, searchFloorStatement, watermarkStatement } from './sql.js';

export interface FloorServer {
  url: string;
  close(): Promise<void>;
}

const LIST = /^\/api\/v1\/events\/(\d+)\/participants$/;
const SEARCH = /^\/api\/v1\/events\/(\d+)\/participants\/search$/;
/** Rows per read, as the app's list (participants.service LIST_BATCH). */
const BATCH = 500;

/** The list body from the floor table, in id order, a keyset batch at a time. */
async function* listBody(pool: pg.Pool, eventId: number, since: string | null): AsyncGenerator<string> {
  const wm = await watermarkStatement();
  const watermark = String((await pool.query<{ hw: string }>(wm.text, wm.params)).rows[0]!.hw);
  yield '{"participants":[';
  let after = 0;
  let first = true;
  for (;;) {
    const res = await pool.query<{ id: number; j: string }>(
      `SELECT id, j FROM ${FLOOR_TABLE}
        WHERE event_id = $1 AND id > $2 AND updated_at <= $3::timestamptz
          ${since === null ? '' : 'AND updated_at > $5::timestamptz'}
        ORDER BY id LIMIT $4`,
      since === null ? [eventId, after, watermark, BATCH] : [eventId, after, watermark, BATCH, since],
    );
    if (res.rows.length === 0) break;
    yield (first ? '' : ',') + res.rows.map((r) => r.j).join(',');
    first = false;
    after = res.rows[res.rows.length - 1]!.id;
    if (res.rows.length < BATCH) break;
  }
  yield `],"synced_at":"${watermark}"}`;
}

function encoder(
  accept: string | undefined,
): { name: string; stream: zlib.Gzip | zlib.BrotliCompress } | null {
  const tokens = (accept ?? '').split(',').map((t) => t.trim().split(';')[0]);
  if (tokens.includes('br')) {
    return {
      name: 'br',
      stream: zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }),
    };
  }
  if (tokens.includes('gzip')) return { name: 'gzip', stream: zlib.createGzip() };
  return null;
}

export async function startFloorServer(pool: pg.Pool): Promise<FloorServer> {
  const searches = new Map<string, Statement>();

  async function body(url: URL): Promise<AsyncIterable<string> | string | null> {
    let m = LIST.exec(url.pathname);
    if (m) return listBody(pool, Number(m[1]), url.searchParams.get('updated_since'));
    m = SEARCH.exec(url.pathname);
    if (m) {
      const q = (url.searchParams.get('q') ?? '').trim();
      const key = `${m[1]}\n${q}`;
      let st = searches.get(key);
      if (!st) {
        st = await searchFloorStatement(Number(m[1]), q);
        searches.set(key, st);
      }
      return (await pool.query<{ body: string }>(st.text, st.params)).rows[0]!.body;
    }
    return null;
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://floor');
    body(url)
      .then(async (b) => {
        if (b === null) {
          res.writeHead(404).end();
          return;
        }
        const enc = encoder(req.headers['accept-encoding']);
        const headers: http.OutgoingHttpHeaders = { 'content-type': 'application/json; charset=utf-8' };
        if (enc) headers['content-encoding'] = enc.name;
        else if (typeof b === 'string') headers['content-length'] = Buffer.byteLength(b);
        res.writeHead(200, headers);
        const source = Readable.from(typeof b === 'string' ? [b] : b, {
          objectMode: false,
          highWaterMark: 64 * 1024,
        });
        await (enc ? pipeline(source, enc.stream, res) : pipeline(source, res));
      })
      .catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
        else res.destroy();
      });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
