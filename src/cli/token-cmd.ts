// Owns the command table entry of `agentteam token analyze`, a read-only local diagnostic (never an Exec action or MCP tool).
import type { CommandBody } from './args.js';
import type { CliContext } from './daemon-client.js';

export function tokenCommand({ home, homeFlag }: CliContext): CommandBody {
  return {
    sub: [
      {
        name: 'analyze',
        desc: "tokens per session from the runtimes' own transcripts and what AgentTeam's tools cost, read-only, e.g. agentteam token analyze --since 2026-12-01",
        options: [
          { flags: '--agent <name>', desc: 'only this agent (name or id)' },
          { flags: '--runtime <kind>', desc: 'only this runtime', choices: ['claude', 'codex', 'opencode'] },
          { flags: '--since <date>', desc: 'from this UTC day on (YYYY-MM-DD)' },
          { flags: '--until <date>', desc: 'through this UTC day' },
          { flags: '--session <id>', desc: 'only this session (id or prefix)' },
          { flags: '--format <f>', desc: 'default: table on a terminal, else json', choices: ['table', 'json'] },
          { flags: '--from <dir>', desc: "a copied folder of transcripts instead of the runtimes' own" },
          { flags: '--all', desc: 'include sessions AgentTeam did not launch' },
        ],
        run: async (o) => {
          // Loaded only when run: its tokenizer tables are large.
          const { analyze } = await import('./token/analyze.js');
          await analyze(o, { home: home(), homeGiven: homeFlag() !== undefined || process.env.AGENTTEAM_HOME !== undefined, stdout: process.stdout, stderr: process.stderr });
        },
      },
    ],
  };
}
