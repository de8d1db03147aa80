// Owns local agent profiles (home/profiles/<agentId>.json, 0600) of one owning profile: configuration and the agent's server credential.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { readTextIfExists, writePrivateFile } from './home.js';
import { UnsafeHomeError } from './home-check.js';

import { RUNTIME_KINDS, type RuntimeKind } from '../shared/runtime-kinds.js';

export { RUNTIME_KINDS };
export type RuntimeKindName = RuntimeKind;

export interface AgentProfile {
  id: string;
  name: string;
  runtime: RuntimeKindName;
  createdAt: string;
  /** The owning profile: the Human member who added the agent. Absent in older files (adopted by the daemon's owner). */
  owner?: string;
  /** The model the runtime uses for turns; absent means the runtime's default. */
  model?: string;
  /** The absolute working directory turns run in. */
  workdir?: string;
  /** The command a turn runs (for `command`; for other kinds, a replacement for the kind's binary). */
  command?: string[];
  /** The agent's server credential. Never model-visible, never logged, never returned by an owner route. */
  credential: string;
  /** Whether the daemon follows this agent's turns and lets it launch; absent means enabled. */
  enabled?: boolean;
  /** The provider endpoint; may carry userinfo or a query that is secret, so it is only projected sanitized. */
  baseUrl?: string;
  /** Secret: goes only into the env of this agent's runtime process. */
  apiKey?: string;
  /** Provider headers; values are secret, names are projected normalized. */
  headers?: Record<string, string>;
  /** Filesystem policy: the paths this agent's runtime may use; projected only as a count. */
  allowedPaths?: string[];
  /** Knowledge source ids; never projected. */
  sourceIds?: string[];
}

export type PublicProfile = Omit<AgentProfile, 'credential'>;

export function publicProfile(p: AgentProfile): PublicProfile {
  const out: PublicProfile = { id: p.id, name: p.name, runtime: p.runtime, createdAt: p.createdAt };
  if (p.model !== undefined) out.model = p.model;
  if (p.workdir !== undefined) out.workdir = p.workdir;
  if (p.command !== undefined) out.command = p.command;
  return out;
}

/** The fields an owner may change after `agent add`. */
export type ProfilePatch = Partial<Pick<AgentProfile, 'name' | 'runtime' | 'model' | 'workdir' | 'enabled' | 'baseUrl' | 'apiKey' | 'headers' | 'allowedPaths' | 'sourceIds'>>;

export class ProfileStore {
  private byId = new Map<string, AgentProfile>();

  /** `owner`: the owning profile's member id; another owner's profile files are never loaded (invisible, never touched). */
  constructor(private readonly dir: string, private readonly owner?: string) {
    this.byId = ProfileStore.readAll(dir, owner);
  }

  /** Reads every profile file of `owner`; a file that is someone else's, a link or readable by others throws. */
  static readAll(dir: string, owner?: string): Map<string, AgentProfile> {
    const byId = new Map<string, AgentProfile>();
    for (const f of readdirSync(dir)) {
      if (!f.endsWith('.json')) continue;
      try {
        const p = JSON.parse(readTextIfExists(join(dir, f)) ?? '{}') as AgentProfile;
        // Security invariant: a profile another owner added is not this owner's agent: never listed, launched or removed.
        if (owner !== undefined && p.owner !== undefined && p.owner !== owner) continue;
        // The file name is the agent id: a file whose id disagrees is not loaded (remove() must delete the file it came from).
        if (typeof p.id === 'string' && p.credential && f === `${p.id}.json`) byId.set(p.id, owner !== undefined && p.owner === undefined ? { ...p, owner } : p);
      } catch (e) {
        // A profile that is someone else's, a link or readable by others is never loaded: refuse to start.
        if (e instanceof UnsafeHomeError) throw e;
        /* an unparsable profile is skipped; the server still knows the agent */
      }
    }
    return byId;
  }

  /** Re-reads the folder; returns whether anything changed. */
  reload(): boolean {
    const next = ProfileStore.readAll(this.dir, this.owner);
    const same = next.size === this.byId.size && [...next].every(([id, p]) => JSON.stringify(p) === JSON.stringify(this.byId.get(id)));
    this.byId = next;
    return !same;
  }

  remove(id: string): boolean {
    if (!this.byId.delete(id)) return false;
    rmSync(join(this.dir, `${id}.json`), { force: true });
    return true;
  }

  list(): AgentProfile[] {
    return [...this.byId.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  }

  /** Finds an agent by id or by name. */
  find(nameOrId: string): AgentProfile | undefined {
    return this.byId.get(nameOrId) ?? this.list().find((p) => p.name === nameOrId);
  }

  get(id: string): AgentProfile | undefined {
    return this.byId.get(id);
  }

  save(p: AgentProfile): void {
    if (this.owner !== undefined && p.owner === undefined) p = { ...p, owner: this.owner };
    writePrivateFile(join(this.dir, `${p.id}.json`), JSON.stringify(p, null, 2) + '\n');
    this.byId.set(p.id, p);
  }

  /** Agent IDs in stable order (code-unit order, the keyset order of `agent list`). */
  ids(): string[] {
    return [...this.byId.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  get size(): number {
    return this.byId.size;
  }
}
