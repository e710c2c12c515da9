/**
 * The server's side of the embedded database's thread (pglite-worker.mjs): PGlite runs there, and each `pg`
 * connection gets a stream (`pg.Pool({ stream })`) that carries the wire protocol to it. The event loop only
 * moves bytes; statements run in parallel with request handling, JSON and auth.
 *
 * Frontend messages are batched until one that asks for an answer (Sync, simple Query, Flush, Terminate, the end
 * of a COPY, a password, the startup packet), so an extended-protocol query (Parse, Bind, Describe, Execute,
 * Sync) is one message to the thread and one reply, not five.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Duplex } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { PRODUCT_ROOT } from '../lib/productRoot.js';
import { unpackTemplate } from './template.js';

export interface PGliteThreadOptions {
  dataDir: string;
  timezone: string;
  postgresqlconf: string[];
  extensions: string[];
  /** The empty cluster a new data folder is unpacked from (db/template.ts); without it PGlite runs initdb. */
  template?: string;
}

type Reply = { type: 'reply'; id: number; bytes?: Uint8Array; error?: string };
type WorkerMessage = Reply | { type: 'ready' } | { type: 'failed'; message: string } | { type: 'closed' };

/** Frontend message types after which the backend answers (the batch is sent): Q S H X c f p. */
const ANSWERED = new Set([0x51, 0x53, 0x48, 0x58, 0x63, 0x66, 0x70]);
const TERMINATE = 0x58;

export class PGliteThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (b: Uint8Array) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private dead: Error | undefined;
  private closed: (() => void) | undefined;

  private constructor(options: PGliteThreadOptions & { createOnly?: boolean }) {
    this.worker = new Worker(path.join(PRODUCT_ROOT, 'src/server/db/pglite-worker.mjs'), {
      workerData: options,
      // The thread only moves protocol bytes and PGlite's own buffers: a small young generation is enough, and
      // V8's default (tens of MB) stayed resident at idle.
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
  }

  /** Starts the thread and opens the database there; a new data folder is first created by a thread of its own. */
  static async start(options: PGliteThreadOptions): Promise<PGliteThread> {
    if (!fs.existsSync(path.join(options.dataDir, 'PG_VERSION'))) await PGliteThread.create(options);
    return PGliteThread.open(options);
  }

  /**
   * A new data folder: the shipped empty cluster unpacked (db/template.ts), or, without one, PGlite's initdb in a
   * thread of its own that ends right after (initdb's second WebAssembly instance goes with it). Either is made
   * beside the data folder and renamed into place when whole, so a start stopped half-way (a kill, a full disk)
   * leaves no half-made cluster that the next start would take for a database.
   */
  private static async create(options: PGliteThreadOptions): Promise<void> {
    const making = `${options.dataDir}.new`;
    fs.rmSync(making, { recursive: true, force: true });
    if (options.template) unpackTemplate(options.template, making);
    else {
      fs.mkdirSync(making, { recursive: true });
      const creator = await PGliteThread.open({ ...options, dataDir: making, createOnly: true });
      await creator.worker.terminate();
    }
    if (fs.existsSync(options.dataDir)) {
      if (fs.readdirSync(options.dataDir).length === 0) fs.rmdirSync(options.dataDir);
      else {
        // Files without PG_VERSION are no database of ours: kept aside, never deleted.
        const aside = `${options.dataDir}.incomplete-${Date.now()}`;
        fs.renameSync(options.dataDir, aside);
        console.warn(`[canteen-admin] ${options.dataDir} held no database (no PG_VERSION); moved to ${aside}`);
      }
    }
    fs.renameSync(making, options.dataDir);
  }

  private static async open(options: PGliteThreadOptions & { createOnly?: boolean }): Promise<PGliteThread> {
    const t = new PGliteThread(options);
    await new Promise<void>((resolve, reject) => {
      t.worker.on('message', (m: WorkerMessage) => {
        if (m.type === 'ready') resolve();
        else if (m.type === 'failed') reject(new Error(`embedded database: ${m.message}`));
        else if (m.type === 'closed') t.closed?.();
        else t.settle(m);
      });
      t.worker.on('error', (e) => {
        t.fail(e);
        reject(e);
      });
      t.worker.on('exit', (code) => {
        t.fail(new Error(`embedded database thread exited (${code})`));
        reject(t.dead);
        t.closed?.();
      });
    });
    return t;
  }

  /** Runs a batch of frontend messages; resolves with the backend's reply bytes. */
  exec(bytes: Uint8Array): Promise<Uint8Array> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ type: 'exec', id, bytes }, [bytes.buffer as ArrayBuffer]);
    });
  }

  /** A new connection's stream, for `pg`'s `stream` option. */
  stream(): Duplex {
    return new PGliteStream(this);
  }

  async close(): Promise<void> {
    if (this.dead) return;
    await new Promise<void>((resolve) => {
      this.closed = resolve;
      this.worker.postMessage({ type: 'close' });
    });
    this.fail(new Error('embedded database closed'));
    await this.worker.terminate();
  }

  private settle(m: Reply) {
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (m.error !== undefined) p.reject(new Error(`embedded database: ${m.error}`));
    else p.resolve(m.bytes!);
  }

  private fail(e: Error) {
    this.dead ??= e;
    for (const p of this.pending.values()) p.reject(this.dead);
    this.pending.clear();
  }
}

/** What `pg` sees as its socket: frontend bytes in, backend bytes out, through the thread. */
class PGliteStream extends Duplex {
  private buffered: Buffer = Buffer.alloc(0);
  private started = false;

  constructor(private readonly thread: PGliteThread) {
    super();
  }

  // The socket methods `pg` calls on a connection's stream.
  connect() {
    setImmediate(() => this.emit('connect'));
    return this;
  }
  setNoDelay() {
    return this;
  }
  setKeepAlive() {
    return this;
  }
  ref() {
    return this;
  }
  unref() {
    return this;
  }

  override _read() {}

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (e?: Error | null) => void): void {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    let at = 0; // end of the whole messages read so far
    let sent = 0; // end of what has been sent
    while (at < this.buffered.length) {
      let answered: boolean;
      let type = -1;
      if (!this.started) {
        // The startup packet (no type byte: length, protocol version, parameters) goes alone.
        if (this.buffered.length < at + 4) break;
        const len = this.buffered.readInt32BE(at);
        if (this.buffered.length < at + len) break;
        this.started = true;
        at += len;
        answered = true;
      } else {
        if (this.buffered.length < at + 5) break;
        type = this.buffered[at];
        const len = 1 + this.buffered.readInt32BE(at + 1);
        if (this.buffered.length < at + len) break;
        at += len;
        answered = ANSWERED.has(type);
      }
      if (answered) {
        // A copy: its memory moves to the thread.
        this.send(new Uint8Array(this.buffered.subarray(sent, at)), type === TERMINATE);
        sent = at;
      }
    }
    this.buffered = this.buffered.subarray(sent);
    done();
  }

  override _final(done: (e?: Error | null) => void) {
    this.push(null);
    done();
  }

  private send(batch: Uint8Array, terminate: boolean) {
    this.thread.exec(batch).then(
      (reply) => {
        if (reply.byteLength) this.push(Buffer.from(reply.buffer, reply.byteOffset, reply.byteLength));
        if (terminate) this.push(null);
      },
      (e: Error) => this.destroy(e),
    );
  }
}
