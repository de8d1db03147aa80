// Owns the `command` driver: any command runs as given; it reaches AgentTeam only through the caller's env. A turn gets
// the compiled prompt on stdin and its exact target in AGENTTEAM_TURN_* (ARCHITECTURE §9).
import type { RuntimeDriver } from './types.js';

/** The per-turn variables a `command` runtime reads; appended after the env scrub (they are not credentials). */
export const TURN_ENV = {
  target: 'AGENTTEAM_TURN_TARGET',
  targetType: 'AGENTTEAM_TURN_TARGET_TYPE',
  messageId: 'AGENTTEAM_TURN_MESSAGE_ID',
} as const;

export const commandDriver: RuntimeDriver = {
  kind: 'command',
  binaries: [],
  install: 'give the command to run after `--`, e.g. `agentteam runtime start --agent A --runtime command -- ./my-agent.sh`',
  async configure({ opts }) {
    const turn = opts.turn;
    if (!turn) return {};
    return {
      // The whole compiled prompt (stable instructions, then the route and turn parts) is the command's stdin.
      stdin: `${turn.stable}\n\n${turn.prompt}\n`,
      envAdd: { [TURN_ENV.target]: turn.target, [TURN_ENV.targetType]: turn.targetType, [TURN_ENV.messageId]: turn.messageId },
    };
  },
};
