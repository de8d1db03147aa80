// Owns running one turn: compile its prompt in the agent's runtime naming and launch the runtime through the launcher.
import { statSync } from 'node:fs';
import type { AgentProfile } from '../home/profiles.js';
import type { RuntimeLauncher, TurnRun } from '../runtime/launcher.js';
import type { TurnInput } from '../runtime/drivers/types.js';
import type { TurnRow } from './journal.js';
import type { StartedProcess } from './engine.js';
import { processStartTime } from '../shared/proc.js';
import type { PromptCompiler } from './prompt.js';

export function turnRunner(deps: { launcher: RuntimeLauncher; compiler: PromptCompiler; defaultWorkdir: string }) {
  return async (agent: AgentProfile, t: TurnRow, timeoutMs: number, resumeId: string | undefined, started: (p: StartedProcess) => void): Promise<TurnRun> => {
    const workdir = agent.workdir ?? deps.defaultWorkdir;
    if (!isDir(workdir)) return { runId: null, code: null, signal: null, timedOut: false, failure: { kind: 'start_failed', message: "the agent's workdir is not a directory" } };
    const c = deps.compiler.compile(agent.runtime, {
      agentName: agent.name,
      authorName: t.authorName,
      authorKind: t.authorKind,
      target: t.target,
      messageId: t.messageId,
      content: t.content,
    });
    const input: TurnInput = { turnId: t.turnId, target: t.target, targetType: t.targetType, messageId: t.messageId, stable: c.stable, prompt: c.prompt };
    if (resumeId !== undefined) input.resumeId = resumeId;
    if (agent.model !== undefined) input.model = agent.model;
    const meta = { turnId: t.turnId, target: t.target, targetType: t.targetType, messageId: t.messageId, authorKind: t.authorKind };
    return deps.launcher.runTurn({ agent, runtime: agent.runtime, workdir, command: agent.command ?? [], turn: { input, meta } }, timeoutMs, started);
  };
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * SIGKILLs the process group of a runtime left by a crashed daemon. Security invariant: only when the pid still has the
 * recorded start time, so a reused pid (another process) is never signalled.
 */
export function killOrphan(pid: number, pidStart: string): boolean {
  if (!Number.isInteger(pid) || pid <= 1 || processStartTime(pid) !== pidStart) return false;
  try {
    process.kill(-pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}
