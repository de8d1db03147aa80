// Owns retiring local agents and reconciling the profile index with the disk and the server: nothing of a removed agent is left behind.
import type { Logger } from 'pino';
import type { AgentIndex } from './agent-index.js';
import type { AgentProfile, ProfileStore } from '../home/profiles.js';

/** The parts of the daemon that hold something of an agent; each is wired once by the composition root. */
export interface LifecycleDeps {
  index: AgentIndex;
  profiles: ProfileStore;
  /** Live runtimes: stopping one revokes every generation of its authorization before its files go. */
  runtimes: { runIdsOf(agentId: string): string[]; stop(runId: string): Promise<unknown> };
  /** The turn feed. */
  turns: { follow(p: AgentProfile): void; unfollow(agentId: string): void };
  /** Per-agent state kept under the home: the turn journal and the managed Memory clone. */
  leftovers: Array<{ forget(agentId: string): void }>;
  /** The server's agent member ids, as the owner sees them; a throw means "unknown", and nothing is removed. */
  agentMembers(): Promise<ReadonlySet<string>>;
  log: Logger;
}

export interface ReconcileResult {
  changed: boolean;
  revision: number;
  agents: number;
  /** Profiles removed because their server member is gone. */
  orphans: string[];
  /** Profiles whose file vanished (their runtimes were stopped). */
  vanished: string[];
}

export class AgentLifecycle {
  constructor(private readonly deps: LifecycleDeps) {}

  /** Stops an agent's turn feed and live runtimes. Security invariant: its authorizations are revoked before anything else goes. */
  async quiesce(agentId: string): Promise<void> {
    this.deps.turns.unfollow(agentId);
    await Promise.all(this.deps.runtimes.runIdsOf(agentId).map((r) => this.deps.runtimes.stop(r).catch(() => undefined)));
  }

  /** Removes one agent: quiesce, drop the profile (bumps the revision), then forget its journal rows and Memory clone. */
  async remove(agentId: string): Promise<void> {
    await this.quiesce(agentId);
    this.deps.index.remove(agentId);
    this.forget(agentId);
  }

  /** Disable stops the feed and the live runtimes; enable follows again. */
  async setEnabled(p: AgentProfile): Promise<void> {
    if (p.enabled === false) await this.quiesce(p.id);
    else this.deps.turns.follow(p);
  }

  /**
   * Orphan cleanup: profiles whose server member is gone are quiesced, removed (one revision bump) and forgotten.
   * When the server cannot say who its members are, nothing is removed.
   */
  async cleanupOrphans(): Promise<string[]> {
    let members: ReadonlySet<string>;
    try {
      members = await this.deps.agentMembers();
    } catch (e) {
      this.deps.log.warn({ err: (e as Error).name }, 'orphan cleanup skipped: the server member list is unavailable');
      return [];
    }
    const gone = this.deps.profiles.list().filter((p) => !members.has(p.id)).map((p) => p.id);
    for (const id of gone) await this.quiesce(id);
    const removed = this.deps.index.cleanupOrphans((id) => members.has(id));
    for (const id of removed) this.forget(id);
    if (removed.length > 0) this.deps.log.warn({ agents: removed }, 'removed local agents whose server member is gone');
    return removed;
  }

  /** `agent reload`: re-reads the profiles folder (vanished files are quiesced, new ones followed), then cleans up orphans. */
  async reload(): Promise<ReconcileResult> {
    const before = new Set(this.deps.profiles.ids());
    const changed = this.deps.index.reload();
    const now = new Set(this.deps.profiles.ids());
    const vanished = [...before].filter((id) => !now.has(id));
    for (const id of vanished) {
      await this.quiesce(id);
      this.forget(id);
    }
    for (const p of this.deps.profiles.list()) {
      if (p.enabled === false) await this.quiesce(p.id);
      else this.deps.turns.follow(p);
    }
    const orphans = await this.cleanupOrphans();
    return { changed: changed || orphans.length > 0, revision: this.deps.index.revision, agents: this.deps.profiles.size, orphans, vanished };
  }

  private forget(agentId: string): void {
    for (const l of this.deps.leftovers) {
      try {
        l.forget(agentId);
      } catch (e) {
        this.deps.log.warn({ agentId, err: (e as Error).name }, 'could not remove state of a removed agent');
      }
    }
  }
}
