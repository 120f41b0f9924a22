// Worker thread that owns the embedded PGlite database and serves it over the PostgreSQL wire
// protocol on a loopback port, so the HTTP event loop never runs a query itself and the rest of
// Muster talks to it with the same `pg` driver it uses for a real PostgreSQL server.
// workerData: {dataDir, maxConnections, snapshot?, wasmModule?}: `snapshot` is a data-folder tarball
// (written by a 'dump' message) to start from instead of an empty cluster, which skips initdb
// (seconds); `wasmModule` is PGlite's WebAssembly compiled once by the parent process (embedded.ts).
// Messages to the parent: {type:'ready', host, port} | {type:'error', message} | {type:'dumped', message?} |
// {type:'stopped'} | {type:'memory', wasmBytes, heapBytes}. Parent → worker: {type:'dump', file}
// (uncompressed tarball) | {type:'memory'} (PGlite's WebAssembly memory and this thread's JavaScript
// heap, in bytes; answered between queries) | 'stop'.
import { readFileSync, writeFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const { dataDir, maxConnections, snapshot, wasmModule } = workerData;
let db;
let server;
try {
  const loadDataDir = snapshot ? new Blob([readFileSync(snapshot)]) : undefined;
  // pg_trgm: the participant search's trigram index (migration 0009_search_trgm).
  db = await PGlite.create(dataDir === 'memory://' ? undefined : dataDir, {
    extensions: { pg_trgm },
    ...(loadDataDir ? { loadDataDir } : {}),
    ...(wasmModule ? { pgliteWasmModule: wasmModule } : {}),
  });
  server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections });
  await server.start();
  const conn = server.getServerConn();
  const port = Number(conn.slice(conn.lastIndexOf(':') + 1));
  parentPort.postMessage({ type: 'ready', host: '127.0.0.1', port });
} catch (error) {
  parentPort.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) });
}

parentPort.on('message', async (message) => {
  if (message?.type === 'memory') {
    parentPort.postMessage({
      type: 'memory',
      wasmBytes: db?.Module?.HEAPU8?.buffer.byteLength ?? null,
      heapBytes: getHeapStatistics().used_heap_size,
    });
    return;
  }
  if (message?.type === 'dump') {
    try {
      const tarball = await db.dumpDataDir('none');
      writeFileSync(message.file, Buffer.from(await tarball.arrayBuffer()));
      parentPort.postMessage({ type: 'dumped' });
    } catch (error) {
      parentPort.postMessage({
        type: 'dumped',
        message: error instanceof Error ? error.message : String(error),
      });
    }
    return;
  }
  if (message !== 'stop') return;
  try {
    await server?.stop();
    await db?.close();
  } finally {
    parentPort.postMessage({ type: 'stopped' });
  }
});
