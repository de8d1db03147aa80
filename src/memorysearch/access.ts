// Owns how each runtime kind is allowed to write its Memory clone, which lies outside the run's working directory.
//
// For the runtime drivers (src/runtime/drivers/) to insert right after the kind's own binary; not wired here because the
// drivers own their argv. Checked against each runtime's docs (stored copies):
// - Claude Code: `--add-dir` gives tool access to folders outside the working directory (anthropics/claude-code issue
//   23404 quotes the docs); variadic like --mcp-config, so the value is attached with `=`.
// - Codex: `[sandbox_workspace_write] writable_roots` lists extra writable folders of the workspace-write sandbox (Codex
//   config docs); `-c sandbox_workspace_write.<key>=…` sets such a key per run (openai/codex issue 34958 shows one). It
//   replaces a user's own list for this run. Not yet checked against a real codex run.
// - OpenCode, Kimi and `command` runs have no sandbox flag for it here: they write where their permissions allow.
import { tomlString } from '../runtime/drivers/codex.js';

/** Flags that make `dir` writable for `kind`, to go right after its binary; empty when the kind needs none. */
export function memoryDirArgs(kind: string, dir: string): string[] {
  if (kind === 'claude') return [`--add-dir=${dir}`];
  if (kind === 'codex') return ['-c', `sandbox_workspace_write.writable_roots=[${tomlString(dir)}]`];
  return [];
}
