// Owns local agent profiles (home/profiles/<agentId>.json, 0600): name, runtime kind and the agent's server credential.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readTextIfExists, writePrivateFile } from './home.js';
import { UnsafeHomeError } from './home-check.js';

import { RUNTIME_KINDS, type RuntimeKind } from '../runtime/drivers/types.js';

export { RUNTIME_KINDS };
export type RuntimeKindName = RuntimeKind;

export interface AgentProfile {
  id: string;
  name: string;
  runtime: RuntimeKindName;
  createdAt: string;
  /** The model the runtime uses for turns; absent means the runtime's default. */
  model?: string;
  /** The absolute working directory turns run in. */
  workdir?: string;
  /** The command a turn runs (for `command`; for other kinds, a replacement for the kind's binary). */
  command?: string[];
  /** The agent's server credential. Never model-visible, never logged, never returned by an owner route. */
  credential: string;
}

export type PublicProfile = Omit<AgentProfile, 'credential'>;

export function publicProfile(p: AgentProfile): PublicProfile {
  const out: PublicProfile = { id: p.id, name: p.name, runtime: p.runtime, createdAt: p.createdAt };
  if (p.model !== undefined) out.model = p.model;
  if (p.workdir !== undefined) out.workdir = p.workdir;
  if (p.command !== undefined) out.command = p.command;
  return out;
}

export class ProfileStore {
  private byId = new Map<string, AgentProfile>();

  constructor(private readonly dir: string) {
    for (const f of readdirSync(dir)) {
      if (!f.endsWith('.json')) continue;
      try {
        const p = JSON.parse(readTextIfExists(join(dir, f)) ?? '{}') as AgentProfile;
        if (p.id && p.credential) this.byId.set(p.id, p);
      } catch (e) {
        // A profile that is someone else's, a link or readable by others is never loaded: refuse to start.
        if (e instanceof UnsafeHomeError) throw e;
        /* an unparsable profile is skipped; the server still knows the agent */
      }
    }
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
    writePrivateFile(join(this.dir, `${p.id}.json`), JSON.stringify(p, null, 2) + '\n');
    this.byId.set(p.id, p);
  }

  get size(): number {
    return this.byId.size;
  }
}
