// Owns reading Claude Code project transcripts (<config>/projects/<project>/<sessionId>.jsonl, subagents/ too) into session accounts.
import { resultText, type ReadContext, type SessionAccount } from './collector.js';
import { eachJsonLine } from './lines.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Reads one Claude Code JSONL file; lines are attributed by their own `sessionId` (a subagent file joins its parent). */
export async function readClaudeFile(path: string, ctx: ReadContext, fallbackId: string): Promise<{ lines: number; skipped: number }> {
  return eachJsonLine(
    path,
    (line) => {
      const type = line.type;
      if (type !== 'user' && type !== 'assistant' && type !== 'attachment') return;
      const acc = ctx.account('claude', str(line.sessionId) ?? fallbackId);
      const at = str(line.timestamp);
      if (type === 'attachment') return attachment(acc, obj(line.attachment));
      const message = obj(line.message);
      if (!message) return;
      if (type === 'assistant') assistant(acc, line, message, at, ctx);
      else user(acc, message, at);
    },
    ctx.progress,
  );
}

function assistant(acc: SessionAccount, line: Obj, message: Obj, at: string | undefined, ctx: ReadContext): void {
  const usage = obj(message.usage);
  const id = str(message.id);
  const requestId = str(line.requestId);
  if (usage && message.model !== '<synthetic>') {
    ctx.responses.line(
      // One response, however many lines (snapshots) and files it was written in: counted from its final snapshot.
      id !== undefined && requestId !== undefined ? `${id}:${requestId}` : undefined,
      acc,
      at,
      { input: num(usage.input_tokens), cachedInput: num(usage.cache_read_input_tokens), cacheWrite: num(usage.cache_creation_input_tokens), output: num(usage.output_tokens) },
      str(message.model),
      // ccusage's `auto` mode: a cost the line carries (older Claude Code wrote `costUSD`) wins over the price table.
      { ...(typeof line.costUSD === 'number' ? { costUSD: line.costUSD } : {}), ...(typeof usage.speed === 'string' ? { speed: usage.speed } : {}) },
    );
  }
  if (!Array.isArray(message.content)) return;
  for (const b of message.content) {
    const block = obj(b);
    if (block?.type === 'tool_use' && typeof block.name === 'string') acc.toolCall(str(block.id) ?? '', block.name, block.input, at);
  }
}

function user(acc: SessionAccount, message: Obj, at: string | undefined): void {
  const content = message.content;
  if (typeof content === 'string') return acc.userText(content);
  if (!Array.isArray(content)) return;
  for (const b of content) {
    const block = obj(b);
    if (!block) continue;
    if (block.type === 'text' && typeof block.text === 'string') acc.userText(block.text);
    else if (block.type === 'tool_result') acc.toolResult(str(block.tool_use_id) ?? '', resultText(block.content), block.is_error === true, at);
  }
}

/** Claude Code 2.1 records the MCP server instructions it put in front of the model as an attachment. */
function attachment(acc: SessionAccount, a: Obj | undefined): void {
  // With tool search on (the default), MCP tools reach the model as bare names until ToolSearch loads a schema.
  if (a?.type === 'deferred_tools_delta' && Array.isArray(a.addedNames)) {
    const ours = a.addedNames.filter((n): n is string => typeof n === 'string' && n.startsWith('mcp__agentteam__'));
    if (ours.length) acc.surface('deferred tool names', ours.join('\n'));
    return;
  }
  if (a?.type !== 'mcp_instructions_delta' || !Array.isArray(a.addedNames) || !Array.isArray(a.addedBlocks)) return;
  a.addedNames.forEach((name, i) => {
    const block = a.addedBlocks as unknown[];
    if (name === 'agentteam' && typeof block[i] === 'string') acc.surface('instructions', block[i] as string);
  });
}
