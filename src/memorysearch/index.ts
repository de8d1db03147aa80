// Owns one clone's live index: the initial (incremental) build, watchers plus an mtime scan to stay fresh, and search.
import { lstatSync, realpathSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Clock, Timer } from '../shared/clock.js';
import { toFtsQuery } from './query.js';
import { splitSections } from './sections.js';
import { IndexStore, removeIndexFiles, type FileStamp, type Hit } from './store.js';
import { isHiddenPath, isIndexedPath, readIndexed, toRel, walk } from './walk.js';

/** `refused`: the clone path is a symlink (or not a folder), which the index never follows. */
export type IndexState = 'missing' | 'refused' | 'building' | 'ready' | 'closed';

export type SearchOutcome = { ok: true; hits: Hit[] } | { ok: false; reason: 'missing' | 'refused' | 'building' | 'no_terms' };

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
  /** Scan period when a watcher is missing or dead; default 1 s (a change is searchable within about a second). */
  fallbackScanMs?: number;
  onError?: (what: string, e: unknown) => void;
}

/** Files re-read per transaction during a scan; the event loop is yielded between batches. */
const BATCH = 200;
/** After a scan that re-indexed at least this many files, the index is merged into one segment, a bounded step at a time. */
const MERGE_AFTER_FILES = BATCH;
const MERGE_PAGES = 100;
const MERGE_STEPS_MAX = 10_000;
/** Delay that coalesces a burst of watcher events into one flush. */
const DEBOUNCE_MS = 25;

const yieldLoop = () => new Promise<void>((r) => setImmediate(r));

function same(a: FileStamp | undefined, b: FileStamp): boolean {
  return a !== undefined && a.size === b.size && Math.trunc(a.mtimeMs) === Math.trunc(b.mtimeMs);
}

/**
 * What is at the clone path: `dir:<dev>:<ino>:<birth>` for a real folder, else `missing` or `refused` (a symlink, a file).
 * The birth time is part of it because a folder removed and made again at once often gets the same inode number.
 */
function probe(root: string): string {
  try {
    const st = lstatSync(root);
    return st.isDirectory() ? `dir:${st.dev}:${st.ino}:${st.birthtimeMs}` : 'refused';
  } catch {
    return 'missing';
  }
}

/**
 * Lifecycle: start() opens the database and begins a build in the background (state `building`); the build
 * re-reads only files whose mtime/size differ from the database and drops files that are gone, then the state is
 * `ready`. Watcher events mark paths dirty; a short timer (and every search, first) re-indexes exactly those files.
 * A periodic mtime scan catches lost events. A failing database is rebuilt.
 * The index is armed on one folder (`seen`: its inode, or `missing`/`refused`). A watcher on the clone's parent and
 * every search compare the path with it; when the folder is removed, renamed, re-created or replaced by a symlink, the
 * old watcher (which fs.watch lets die silently, or which follows the moved folder) is dropped, every entry read from
 * the old folder is deleted at once, and the index re-arms on what is there now and rescans.
 */
export class MemoryIndex {
  private store: IndexStore | undefined;
  private watcher: FSWatcher | undefined;
  private parentWatcher: FSWatcher | undefined;
  /** What the index is armed on (see probe), undefined before the first look; realRoot is that folder's real path. */
  private seen: string | undefined;
  private realRoot: string | undefined;
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
    this.startParentWatcher();
    return this.scan();
  }

  /** Calls fn with the clone-relative paths each time files are (re)indexed or removed. Returns an unsubscribe. */
  onIndexed(fn: (paths: string[]) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  search(query: string, limit: number): SearchOutcome {
    this.checkRoot(); // a folder removed, replaced or made a symlink is seen here at the latest, before any hit
    if (this._state === 'missing' || this._state === 'closed') return { ok: false, reason: 'missing' };
    if (this._state === 'refused') return { ok: false, reason: 'refused' };
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
    this.parentWatcher?.close();
    this.flushTimer?.cancel();
    this.scanTimer?.cancel();
    this.store?.close();
    this.store = undefined;
  }

  private openStore(): void {
    this.store?.close();
    this.store = new IndexStore(this.opts.dbPath);
  }

  /** True when the clone path is still the folder the index is armed on; otherwise re-arms (see the class comment). */
  private checkRoot(rescan = true): boolean {
    if (this._state === 'closed' || this.seen === undefined) return false;
    if (probe(this.opts.root) === this.seen) return true;
    this.watcher?.close();
    this.watcher = undefined;
    this.dirty.clear();
    // A deleted file never returns a hit: what was read from the old folder is dropped now, not after a scan.
    this.clearStore();
    this.seen = undefined;
    this._state = 'building';
    this.settle();
    if (rescan) void this.scan();
    return false;
  }

  /**
   * The parent reported the clone's own name (created, removed, moved, attributes): re-arm even when it looks unchanged,
   * since fs.watch on a removed folder dies silently and its successor may reuse the inode and birth time's precision.
   */
  private rearm(): void {
    if (!this.checkRoot()) return; // changed: already re-armed
    this.watcher?.close();
    this.watcher = undefined;
    this.startWatcher();
    void this.scan();
  }

  /** Looks at the clone path once and arms on it: a real folder is watched; a missing or refused one leaves no entries. */
  private settle(): void {
    const key = probe(this.opts.root);
    if (key.startsWith('dir:')) {
      try {
        this.realRoot = realpathSync(this.opts.root);
        this.seen = key;
        if (this._state !== 'ready') this._state = 'building';
        this.startWatcher();
        return;
      } catch {
        /* gone again: missing */
      }
    }
    this.seen = key.startsWith('dir:') ? 'missing' : key;
    this.realRoot = undefined;
    this.clearStore();
    this._state = this.seen as 'missing' | 'refused';
  }

  private clearStore(): void {
    try {
      this.store?.clear();
    } catch (e) {
      this.opts.onError?.('clear', e);
      this.rebuild();
    }
  }

  /** Watches the clone's parent for the clone's own name: removal, re-creation, rename and symlink swaps. */
  private startParentWatcher(): void {
    if (this.opts.watch === false || this.parentWatcher) return;
    const name = basename(this.opts.root);
    try {
      const w = watch(dirname(this.opts.root), { persistent: false }, (_event, n) => {
        if (n === null || n.toString() === name) this.rearm();
      });
      w.on('error', (e) => {
        this.opts.onError?.('watch', e);
        w.close();
        if (this.parentWatcher === w) this.parentWatcher = undefined;
        this.scheduleScan();
      });
      this.parentWatcher = w;
    } catch (e) {
      this.opts.onError?.('watch', e);
    }
  }

  private startWatcher(): void {
    if (this.opts.watch === false || this.watcher) return;
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
        if (this.watcher === w) this.watcher = undefined;
        if (this.checkRoot()) this.scheduleScan();
      });
      this.watcher = w;
    } catch (e) {
      this.opts.onError?.('watch', e);
    }
  }

  private scheduleScan(): void {
    if (this._state === 'closed') return;
    this.scanTimer?.cancel();
    const ms = this.watcher && this.parentWatcher ? (this.opts.scanEveryMs ?? 60_000) : (this.opts.fallbackScanMs ?? 1000);
    this.scanTimer = this.opts.clock.setTimer(ms, () => void this.scan());
  }

  /** Re-indexes the dirty paths now (synchronous; each is one small file). */
  private flush(): void {
    if (this.dirty.size === 0 || !this.store || !this.checkRoot()) return;
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
        } else if (this.maybeFolder(rel)) {
          folderEvent = true;
          // A removed folder's files are dropped now (the scan it starts would be too late for a search right after).
          if (this.gone(rel)) for (const p of store.stamps().keys()) if (p.startsWith(`${rel}/`)) (store.remove(p), changed.push(p));
        }
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

  private gone(rel: string): boolean {
    try {
      lstatSync(join(this.opts.root, rel));
      return false;
    } catch {
      return true;
    }
  }

  /** Re-reads one file unless its stamp is `known`; removes it when gone. True when the index changed. */
  private reindex(store: IndexStore, rel: string, known: FileStamp | undefined): boolean {
    const read = this.realRoot === undefined ? null : readIndexed(this.opts.root, rel, this.realRoot);
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
    if (!this.store) this.openStore();
    this.startParentWatcher();
    if (this.seen === undefined) this.settle();
    else this.checkRoot(false); // re-arms on whatever is there now
    if (this._state === 'missing' || this._state === 'refused') return;
    let onDisk: Map<string, FileStamp>;
    try {
      onDisk = await walk(this.opts.root);
    } catch (e) {
      if (!this.checkRoot(false)) return this.runScan(); // the folder went or changed while walking
      this.opts.onError?.('scan', e);
      return;
    }
    const store = this.store;
    if (!store) return; // closed or rebuilding while the walk ran
    const indexed = store.stamps();
    const gone = [...indexed.keys()].filter((p) => !onDisk.has(p));
    const stale = [...onDisk].filter(([p, s]) => !same(indexed.get(p), s)).map(([p]) => p);
    for (let i = 0; i < stale.length || (i === 0 && gone.length > 0); i += BATCH) {
      if (this.store !== store) return; // closed or rebuilt meanwhile
      if (!this.checkRoot(false)) return this.runScan(); // the folder changed meanwhile: scan what is there now
      const part = stale.slice(i, i + BATCH);
      const changed: string[] = [];
      store.batch(() => {
        if (i === 0) for (const p of gone) (store.remove(p), changed.push(p));
        for (const p of part) if (this.reindex(store, p, indexed.get(p))) changed.push(p);
      });
      this.emit(changed);
      await yieldLoop();
    }
    if (!this.checkRoot(false)) return this.runScan(); // the walk may have listed a folder swapped meanwhile
    if (this._state === 'building') this._state = 'ready';
    if (stale.length >= MERGE_AFTER_FILES) {
      // Searches run between steps (each is a few ms); a store closed or rebuilt meanwhile ends the merge.
      try {
        for (let step = 0; step < MERGE_STEPS_MAX && this.store === store && store.mergeStep(MERGE_PAGES); step++) await yieldLoop();
      } catch (e) {
        this.opts.onError?.('merge', e); // searches still work on an unmerged index
      }
    }
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
