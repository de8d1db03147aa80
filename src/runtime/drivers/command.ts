// Owns the `command` driver: any command runs as given; it reaches AgentTeam only through the caller's env.
import type { RuntimeDriver } from './types.js';

export const commandDriver: RuntimeDriver = {
  kind: 'command',
  binaries: [],
  install: 'give the command to run after `--`, e.g. `agentteam runtime start --agent A --runtime command -- ./my-agent.sh`',
  async configure() {
    return {};
  },
};
