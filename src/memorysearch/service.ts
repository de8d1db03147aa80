// Owns MemorySearch: per-agent clones and their live indexes (opened lazily, one database each), closed at shutdown.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../shared/clock.js';
import { ensurePrivateDir } from '../home/home.js';
import { cloneDir, ensureClone, type CloneInfo } from './clone.js';
import { MemoryIndex, type SearchOutcome } from './index.js';

export interface MemorySearchOptions {
  /** Home folder holding the clones (memory/<agentId>/). */
  memoryRoot: string;
  /** Home folder holding one index database per agent (0700; files 0600). */
  indexRoot: string;
  clock: Clock;
  gitBinary?: string;
  watch?: boolean;
  onError?: (agentId: string, what: string, e: unknown) => void;
}

export class MemorySearch {
  private indexes = new Map<string, MemoryIndex>();

  constructor(private readonly opts: MemorySearchOptions) {}

  /** The agent's clone folder (it may not exist yet). */
  dir(agentId: string): string {
    return cloneDir(this.opts.memoryRoot, agentId);
  }

  /** Creates the agent's clone if needed and starts its index (the build runs in the background). */
  ensure(agentId: string): CloneInfo {
    const info = ensureClone(this.opts.memoryRoot, agentId, this.opts.gitBinary);
    this.index(agentId);
    return info;
  }

  /** The agent's live index, started on first use (state `missing` while the clone does not exist, `refused` while it is a symlink). */
  index(agentId: string): MemoryIndex {
    const root = this.dir(agentId);
    let idx = this.indexes.get(agentId);
    if (!idx) {
      ensurePrivateDir(this.opts.indexRoot);
      idx = new MemoryIndex({
        root,
        dbPath: join(this.opts.indexRoot, `${agentId}.db`),
        clock: this.opts.clock,
        watch: this.opts.watch,
        onError: (what, e) => this.opts.onError?.(agentId, what, e),
      });
      this.indexes.set(agentId, idx);
      void idx.start().catch((e) => this.opts.onError?.(agentId, 'build', e));
    } else if (idx.state === 'missing' || idx.state === 'refused') {
      void idx.scan();
    }
    return idx;
  }

  /** Searches exactly `agentId`'s own clone; callers pass the agent bound to the caller's credential. */
  search(agentId: string, query: string, limit: number): SearchOutcome {
    return this.index(agentId).search(query, limit);
  }

  /** Removes a removed agent's clone and index: the index is closed first, then both are deleted. */
  forget(agentId: string): void {
    const dir = this.dir(agentId);
    this.indexes.get(agentId)?.close();
    this.indexes.delete(agentId);
    rmSync(dir, { recursive: true, force: true });
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(this.opts.indexRoot, `${agentId}.db${suffix}`), { force: true });
  }

  close(): void {
    for (const idx of this.indexes.values()) idx.close();
    this.indexes.clear();
  }
}
