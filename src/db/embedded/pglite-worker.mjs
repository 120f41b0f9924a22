// Worker thread that owns the embedded PGlite database and serves it over the PostgreSQL wire
// protocol on a loopback port, so the HTTP event loop never runs a query itself and the rest of
// Muster talks to it with the same `pg` driver it uses for a real PostgreSQL server.
// Messages to the parent: {type:'ready', host, port} | {type:'error', message}. Parent → worker: 'stop'.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const { dataDir, maxConnections } = workerData;
let db;
let server;
try {
  // pg_trgm: the participant search's trigram index (migration 0009_search_trgm).
  db = await PGlite.create(dataDir === 'memory://' ? undefined : dataDir, { extensions: { pg_trgm } });
  server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections });
  await server.start();
  const conn = server.getServerConn();
  const port = Number(conn.slice(conn.lastIndexOf(':') + 1));
  parentPort.postMessage({ type: 'ready', host: '127.0.0.1', port });
} catch (error) {
  parentPort.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) });
}

parentPort.on('message', async (message) => {
  if (message !== 'stop') return;
  try {
    await server?.stop();
    await db?.close();
  } finally {
    parentPort.postMessage({ type: 'stopped' });
  }
});
