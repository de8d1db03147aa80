// Owns one clone's live index: the initial (incremental) build, a watcher plus an mtime scan to stay fresh, and search.
import { existsSync, lstatSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import type { Clock, Timer } from '../shared/clock.js';
import { toFtsQuery } from './query.js';
import { splitSections } from './sections.js';
import { IndexStore, removeIndexFiles, type FileStamp, type Hit } from './store.js';
import { isHiddenPath, isIndexedPath, readIndexed, toRel, walk } from './walk.js';

export type IndexState = 'missing' | 'building' | 'ready' | 'closed';

export type SearchOutcome = { ok: true; hits: Hit[] } | { ok: false; reason: 'missing' | 'building' | 'no_terms' };

export interface MemoryIndexOptions {
  /** The clone (a folder of Markdown files). */
  root: string;
  /** The index database file (created 0600). */
  dbPath: string;
  clock: Clock;
  /** Watch the clone with fs.watch (default true); without it only the mtime scan keeps the index fresh. */
  watch?: boolean;
  /** Backstop scan period while the watcher works (events can be lost); default 60 s. */
  scanEveryMs?: number;
  /** Scan period when there is no watcher; default 1 s (a change is searchable within about a second). */
  fallbackScanMs?: number;
  onError?: (what: string, e: unknown) => void;
}

/** Files re-read per transaction during a scan; the event loop is yielded between batches. */
const BATCH = 200;
/** Delay that coalesces a burst of watcher events into one flush. */
const DEBOUNCE_MS = 25;

const yieldLoop = () => new Promise<void>((r) => setImmediate(r));

function same(a: FileStamp | undefined, b: FileStamp): boolean {
  return a !== undefined && a.size === b.size && Math.trunc(a.mtimeMs) === Math.trunc(b.mtimeMs);
}

/**
 * Lifecycle: start() opens the database and begins a build in the background (state `building`); the build
 * re-reads only files whose mtime/size differ from the database and drops files that are gone, then the state is
 * `ready`. Watcher events mark paths dirty; a short timer (and every search, first) re-indexes exactly those files.
 * A periodic mtime scan catches lost events. A missing clone is state `missing`; a failing database is rebuilt.
 */
export class MemoryIndex {
  private store: IndexStore | undefined;
  private watcher: FSWatcher | undefined;
  private dirty = new Set<string>();
  private flushTimer: Timer | undefined;
  private scanTimer: Timer | undefined;
  private scanning: Promise<void> | undefined;
  private rescan: Promise<void> | undefined;
  private listeners = new Set<(paths: string[]) => void>();
  private _state: IndexState = 'building';
  /** Files read from disk since start (tests use it to tell incremental updates from rebuilds). */
  reads = 0;

  constructor(private readonly opts: MemoryIndexOptions) {}

  get state(): IndexState {
    return this._state;
  }

  /** Opens the database and starts the background build; resolves when the build is done (callers need not wait). */
  start(): Promise<void> {
    this.openStore();
    this.startWatcher();
    return this.scan();
  }

  /** Calls fn with the clone-relative paths each time files are (re)indexed or removed. Returns an unsubscribe. */
  onIndexed(fn: (paths: string[]) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  search(query: string, limit: number): SearchOutcome {
    if (this._state === 'missing' || this._state === 'closed') return { ok: false, reason: 'missing' };
    if (this._state !== 'ready' || !this.store) return { ok: false, reason: 'building' };
    const q = toFtsQuery(query);
    if (q === null) return { ok: false, reason: 'no_terms' };
    this.flush();
    try {
      return { ok: true, hits: this.store.search(q, limit) };
    } catch (e) {
      // Queries cannot produce FTS5 syntax errors (query.ts), so a failure here is the database: rebuild it.
      this.opts.onError?.('search', e);
      this.rebuild();
      return { ok: false, reason: 'building' };
    }
  }

  /**
   * One incremental scan (also run by the timer). A call while a scan runs gets one more scan after it (shared by
   * every such call), so what was on disk when scan() was called is indexed when its promise resolves.
   */
  scan(): Promise<void> {
    if (this.scanning) {
      this.rescan ??= this.scanning.then(() => {
        this.rescan = undefined;
        return this.scan();
      });
      return this.rescan;
    }
    this.scanning = this.runScan().finally(() => {
      this.scanning = undefined;
      this.scheduleScan();
    });
    return this.scanning;
  }

  close(): void {
    this._state = 'closed';
    this.watcher?.close();
    this.flushTimer?.cancel();
    this.scanTimer?.cancel();
    this.store?.close();
    this.store = undefined;
  }

  private openStore(): void {
    this.store?.close();
    this.store = new IndexStore(this.opts.dbPath);
  }

  private startWatcher(): void {
    if (this.opts.watch === false || this.watcher || !existsSync(this.opts.root)) return;
    try {
      const w = watch(this.opts.root, { recursive: true, persistent: false }, (_event, name) => {
        if (name === null) return void this.scan();
        this.dirty.add(toRel(name.toString()));
        this.flushTimer ??= this.opts.clock.setTimer(DEBOUNCE_MS, () => {
          this.flushTimer = undefined;
          if (this._state === 'ready') this.flush();
        });
      });
      w.on('error', (e) => {
        this.opts.onError?.('watch', e);
        w.close();
        this.watcher = undefined;
        this.scheduleScan();
      });
      this.watcher = w;
    } catch (e) {
      this.opts.onError?.('watch', e);
    }
  }

  private scheduleScan(): void {
    if (this._state === 'closed') return;
    this.scanTimer?.cancel();
    const ms = this.watcher ? (this.opts.scanEveryMs ?? 60_000) : (this.opts.fallbackScanMs ?? 1000);
    this.scanTimer = this.opts.clock.setTimer(ms, () => void this.scan());
  }

  /** Re-indexes the dirty paths now (synchronous; each is one small file). */
  private flush(): void {
    if (this.dirty.size === 0 || !this.store) return;
    const paths = [...this.dirty];
    this.dirty.clear();
    const changed: string[] = [];
    const store = this.store;
    let folderEvent = false;
    store.batch(() => {
      for (const rel of paths) {
        if (isHiddenPath(rel)) continue; // .git churn never costs a scan
        if (isIndexedPath(rel)) {
          if (this.reindex(store, rel, undefined)) changed.push(rel);
        } else if (!folderEvent) folderEvent = this.maybeFolder(rel);
      }
    });
    if (folderEvent) void this.scan();
    this.emit(changed);
  }

  /** A folder created, renamed or removed (or a name that is gone): a scan sorts out the files under it. */
  private maybeFolder(rel: string): boolean {
    try {
      return lstatSync(join(this.opts.root, rel)).isDirectory();
    } catch {
      return true;
    }
  }

  /** Re-reads one file unless its stamp is `known`; removes it when gone. True when the index changed. */
  private reindex(store: IndexStore, rel: string, known: FileStamp | undefined): boolean {
    const read = readIndexed(this.opts.root, rel);
    if (read === null) {
      store.remove(rel);
      return true;
    }
    this.reads++;
    if (same(known, read.stamp)) return false;
    store.replace(rel, read.stamp, splitSections(read.text));
    return true;
  }

  private async runScan(): Promise<void> {
    if (this._state === 'closed') return;
    if (!existsSync(this.opts.root)) {
      this._state = 'missing';
      return;
    }
    if (this._state === 'missing') {
      this._state = 'building';
      this.startWatcher();
    }
    if (!this.store) this.openStore();
    let onDisk: Map<string, FileStamp>;
    try {
      onDisk = await walk(this.opts.root);
    } catch (e) {
      this.opts.onError?.('scan', e);
      this._state = existsSync(this.opts.root) ? this._state : 'missing';
      return;
    }
    const store = this.store;
    if (!store) return; // closed or rebuilding while the walk ran
    const indexed = store.stamps();
    const gone = [...indexed.keys()].filter((p) => !onDisk.has(p));
    const stale = [...onDisk].filter(([p, s]) => !same(indexed.get(p), s)).map(([p]) => p);
    for (let i = 0; i < stale.length || (i === 0 && gone.length > 0); i += BATCH) {
      if (this.store !== store) return; // closed or rebuilt meanwhile
      const part = stale.slice(i, i + BATCH);
      const changed: string[] = [];
      store.batch(() => {
        if (i === 0) for (const p of gone) (store.remove(p), changed.push(p));
        for (const p of part) if (this.reindex(store, p, indexed.get(p))) changed.push(p);
      });
      this.emit(changed);
      await yieldLoop();
    }
    if (this._state === 'building') this._state = 'ready';
  }

  private rebuild(): void {
    this._state = 'building';
    try {
      this.store?.close();
    } catch {
      /* already broken */
    }
    this.store = undefined;
    try {
      removeIndexFiles(this.opts.dbPath);
    } catch (e) {
      this.opts.onError?.('rebuild', e);
    }
    void this.scan();
  }

  private emit(paths: string[]): void {
    if (paths.length === 0) return;
    for (const l of this.listeners) l(paths);
  }
}
