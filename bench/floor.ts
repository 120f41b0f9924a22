/**
 * The floor (quality.md "Performance"): the same JSON the endpoints return, produced by one SQL
 * statement and served by a bare `node:http` handler over a plain `pg` Pool — no framework, no
 * authentication, no second query. The endpoint/floor ratio is the cost of everything else.
 * Paths mirror the API so the same load options hit both servers.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { listFloorSql, type Statement, searchFloorStatement } from './sql.js';

export interface FloorServer {
  url: string;
  close(): Promise<void>;
}

const LIST = /^\/api\/v1\/events\/(\d+)\/participants$/;
const SEARCH = /^\/api\/v1\/events\/(\d+)\/participants\/search$/;

export async function startFloorServer(pool: pg.Pool): Promise<FloorServer> {
  const full = await listFloorSql(false);
  const delta = await listFloorSql(true);
  const searches = new Map<string, Statement>();

  async function statementFor(url: URL): Promise<Statement | null> {
    let m = LIST.exec(url.pathname);
    if (m) {
      const since = url.searchParams.get('updated_since');
      return since === null
        ? { text: full, params: [Number(m[1])] }
        : { text: delta, params: [Number(m[1]), since] };
    }
    m = SEARCH.exec(url.pathname);
    if (m) {
      const q = (url.searchParams.get('q') ?? '').trim();
      const key = `${m[1]}\n${q}`;
      let st = searches.get(key);
      if (!st) {
        st = await searchFloorStatement(Number(m[1]), q);
        searches.set(key, st);
      }
      return st;
    }
    return null;
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://floor');
    statementFor(url)
      .then(async (st) => {
        if (!st) {
          res.writeHead(404).end();
          return;
        }
        const result = await pool.query<{ body: string }>(st.text, st.params);
        const body = result.rows[0]!.body;
        res.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(body),
        });
        res.end(body);
      })
      .catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
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
