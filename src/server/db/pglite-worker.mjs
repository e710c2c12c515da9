// The embedded database's own thread (issue 13: "the embedded database off the event loop"). PGlite runs
// PostgreSQL compiled to WebAssembly synchronously: in the server's thread every statement stopped every request.
// Here it runs in a worker thread and speaks the PostgreSQL wire protocol: the server's `pg` driver writes
// frontend messages into a stream (pglite-stream.ts), they arrive here in batches that end at a Sync, Query or
// Flush, and the backend's reply bytes go back. So both database modes share the same driver and type parsing.
//
// Plain JavaScript on purpose: a worker thread starts without the TypeScript loader (tsx in production, Vite's
// in the tests), so this file must run in bare Node. It stays small; the options it receives come from
// db/index.ts (the one place that decides the database's settings and extensions).
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/** @type {{ dataDir: string, timezone: string, postgresqlconf: string[], extensions: string[], createOnly?: boolean }} */
const options = workerData;

/** Extension modules by name; only names db/index.ts lists are loaded. */
const EXTENSIONS = {
  pg_trgm: async () => (await import('@electric-sql/pglite/contrib/pg_trgm')).pg_trgm,
};

async function open() {
  const extensions = {};
  for (const name of options.extensions) extensions[name] = await EXTENSIONS[name]();
  const db = await PGlite.create(options.dataDir, { extensions, postgresqlconf: options.postgresqlconf });
  // The session's time zone (the one session every connection shares; timestamps are local time of APP_TIMEZONE).
  await db.exec(`SET TIME ZONE '${options.timezone.replace(/'/g, "''")}'`);
  return db;
}

// Without the shipped template (db/template.ts) a new data folder is made by initdb in a thread of its own that
// ends right after: the memory initdb took (a second WebAssembly instance) goes with it.
const ready = options.createOnly ? open().then((db) => db.close()) : open();
ready.then(
  () => parentPort.postMessage({ type: 'ready' }),
  (e) => parentPort.postMessage({ type: 'failed', message: e instanceof Error ? e.message : String(e) }),
);

// Messages are handled one after another (PGlite is one session): `chain` keeps them in arrival order.
let chain = Promise.resolve();
parentPort.on('message', (msg) => {
  chain = chain.then(async () => {
    const db = await ready;
    if (msg.type === 'close') {
      await db.close();
      parentPort.postMessage({ type: 'closed' });
      return;
    }
    try {
      const out = await db.execProtocolRaw(msg.bytes);
      // A reply to a startup packet is a view of PGlite's own receive buffer: copy it before handing it over.
      const bytes = out.byteLength === out.buffer.byteLength ? out : out.slice();
      parentPort.postMessage({ type: 'reply', id: msg.id, bytes }, [bytes.buffer]);
    } catch (e) {
      parentPort.postMessage({ type: 'reply', id: msg.id, error: e instanceof Error ? e.message : String(e) });
    }
  });
});
