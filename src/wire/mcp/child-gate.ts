// Owns the delegated-child effect rule (spec §Codex delegated-child effect gate): the trusted tools/list inventory says
// which raw tools are read-only, and a non-primary caller may call only those. Shared by the Codex turn helper (per
// thread) and the daemon's CallTool check for child-scoped credentials (per credential).

/** The one text a refused child sees (spec: it only asks the child to return its result to the leader). */
export const CHILD_DENIED_TEXT = 'This tool is not available to a delegated agent: return result to leader.';

/** A tools/list entry as the inventory holds it: only the name and the declared annotation matter here. */
export interface InventoryTool {
  readonly name: string;
  readonly annotations?: { readonly readOnlyHint?: unknown } | null;
}

/**
 * The read-only raw tool names of a trusted inventory. Security invariant: only `annotations.readOnlyHint === true`
 * counts; a missing or false annotation (or any non-boolean) is effectful, and a name outside the inventory is unknown
 * and therefore effectful too. Model arguments are never consulted.
 */
export class EffectInventory {
  private readonly readOnly = new Set<string>();
  private readonly known = new Set<string>();

  constructor(tools: readonly InventoryTool[]) {
    for (const t of tools) {
      if (typeof t?.name !== 'string') continue;
      this.known.add(t.name);
      if (t.annotations?.readOnlyHint === true) this.readOnly.add(t.name);
    }
  }

  has(name: string): boolean {
    return this.known.has(name);
  }

  isReadOnly(name: string): boolean {
    return this.readOnly.has(name);
  }
}

/** Why a call passed or not; safe to log (no arguments, no secrets). */
export type GateDecision = 'allow-primary' | 'allow-read-only' | 'deny-effectful' | 'deny-unknown';

/**
 * The rule itself: the primary caller proceeds; anyone else may call only inventory tools declared read-only.
 * `primary` is decided by the caller from an identity the model cannot choose (the provider thread id, or the
 * credential's scope), never from the call's arguments.
 */
export function decide(inventory: EffectInventory, primary: boolean, tool: string): GateDecision {
  if (primary) return 'allow-primary';
  if (!inventory.has(tool)) return 'deny-unknown';
  return inventory.isReadOnly(tool) ? 'allow-read-only' : 'deny-effectful';
}

export function allowed(d: GateDecision): boolean {
  return d === 'allow-primary' || d === 'allow-read-only';
}
