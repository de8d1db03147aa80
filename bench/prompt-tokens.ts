// Prints the compiled turn prompt's size per runtime kind in o200k tokens (gpt-tokenizer), stable part and per-turn part apart.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { createAgentteamHandler } from '../src/tools/agentteam/handler.js';
import { RUNTIME_KINDS } from '../src/wire/mcp/naming.js';
import { PromptCompiler } from '../src/sessions/prompt.js';

const compiler = new PromptCompiler(createAgentteamHandler());
const turn = {
  agentName: 'demo',
  authorName: 'owner',
  authorKind: 'human' as const,
  target: 'channel:general',
  messageId: 'msg_0001',
  content: '@demo create a task for the release notes and tell me its id',
};
const rows = RUNTIME_KINDS.map((kind) => {
  const c = compiler.compile(kind, turn);
  const stable = countTokens(c.stable);
  const prompt = countTokens(c.prompt);
  return { kind, stable, prompt, total: stable + prompt, stableBytes: Buffer.byteLength(c.stable) };
});
process.stdout.write('| runtime | stable (tokens) | route + turn (tokens) | total | stable bytes |\n| --- | --- | --- | --- | --- |\n');
for (const r of rows) process.stdout.write(`| ${r.kind} | ${r.stable} | ${r.prompt} | ${r.total} | ${r.stableBytes} |\n`);
