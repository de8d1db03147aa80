// Owns reading Codex session rollouts (<CODEX_HOME>/sessions/YYYY/MM/DD/rollout-*.jsonl) into session accounts.
import { classify, resultText, shellCommand, type Classified, type ReadContext, type SessionAccount, type Usage } from './collector.js';
import { eachJsonLine } from './lines.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

interface Totals {
  input: number;
  cached: number;
  write: number;
  output: number;
}
const totals = (u: Obj | undefined): Totals | undefined =>
  u ? { input: num(u.input_tokens), cached: num(u.cached_input_tokens), write: num(u.cache_write_input_tokens), output: num(u.output_tokens) } : undefined;

/** Codex's input counts the cached part; the account keeps uncached input apart. */
function usageOf(t: Totals): Usage {
  return { input: Math.max(0, t.input - t.cached - t.write), cachedInput: t.cached, cacheWrite: t.write, output: t.output };
}

/**
 * Reads one rollout (one session). Token figures: `token_count` events, as differences of the cumulative
 * `total_token_usage` (a repeated event adds nothing), else `last_token_usage`. Tool calls: `item_completed` events
 * (shell commands, dynamic and MCP tool calls, code mode's nested calls included); older rollouts without them are read
 * from `function_call`/`function_call_output` items instead.
 */
export async function readCodexFile(path: string, ctx: ReadContext, fallbackId: string): Promise<{ lines: number; skipped: number }> {
  let acc: SessionAccount | undefined;
  let prev: Totals | undefined;
  let items = false;
  let model: string | undefined;
  const calls = new Map<string, Classified>();
  const fallback: { c: Classified; tokens: number; isError: boolean; at: string | undefined }[] = [];
  const account = () => (acc ??= ctx.account('codex', fallbackId));
  const r = await eachJsonLine(
    path,
    (line) => {
      const p = obj(line.payload);
      if (!p) return;
      const at = str(line.timestamp);
      if (line.type === 'session_meta') {
        acc = ctx.account('codex', str(p.id) ?? fallbackId);
        if (Array.isArray(p.dynamic_tools) && JSON.stringify(p.dynamic_tools).includes('"agentteam"')) acc.surface('dynamic tools', JSON.stringify(p.dynamic_tools));
        return;
      }
      if (line.type === 'turn_context') {
        model = str(p.model) ?? model;
        return;
      }
      const a = account();
      if (line.type === 'event_msg') {
        if (p.type === 'token_count') {
          const info = obj(p.info);
          model = str(info?.model) ?? str(info?.model_name) ?? model;
          const total = totals(obj(info?.total_token_usage));
          let delta: Totals | undefined;
          if (total) {
            delta = prev ? { input: total.input - prev.input, cached: total.cached - prev.cached, write: total.write - prev.write, output: total.output - prev.output } : total;
            prev = total;
          } else delta = totals(obj(info?.last_token_usage));
          if (delta && delta.input + delta.output > 0) a.request(at, usageOf(delta), model);
        } else if (p.type === 'item_completed') {
          if (completedItem(a, obj(p.item), at)) items = true;
        }
        return;
      }
      if (line.type !== 'response_item') return;
      if (p.type === 'message' && Array.isArray(p.content)) {
        const texts = p.content.map((c) => str(obj(c)?.text) ?? '');
        if (p.role === 'user') a.userText(texts.join('\n'));
        // The turn's stable instructions are one item of a developer message that also carries Codex's own.
        else if (p.role === 'developer') for (const t of texts) if (t.startsWith('## AgentTeam tools')) a.surface('instructions', t);
      } else if (p.type === 'function_call' || p.type === 'custom_tool_call' || p.type === 'local_shell_call') {
        const name = p.type === 'local_shell_call' ? 'local_shell' : (str(p.name) ?? '');
        const input = p.type === 'local_shell_call' ? obj(p.action) : (p.arguments ?? p.input);
        // Kept apart: counted only when the rollout has no item_completed events (older Codex), never twice.
        const c = classify(name, input);
        if (c) calls.set(str(p.call_id) ?? '', c);
      } else if (p.type === 'function_call_output' || p.type === 'custom_tool_call_output') {
        const c = calls.get(str(p.call_id) ?? '');
        if (!c) return a.otherResult();
        calls.delete(str(p.call_id) ?? '');
        const out = obj(p.output);
        fallback.push({ c, tokens: a.tokens(resultText(out?.content ?? p.output)), isError: out?.success === false, at });
      }
    },
    ctx.progress,
  );
  if (acc && !items) {
    for (const f of fallback) {
      acc.countCall(f.c);
      acc.resultTokens(f.c, f.tokens, f.isError, f.at);
    }
  }
  return r;
}

/** One finished item: a shell command, a dynamic tool call (the Codex turn's `agentteam` namespace) or an MCP tool call. */
function completedItem(a: SessionAccount, item: Obj | undefined, at: string | undefined): boolean {
  if (!item) return false;
  let c: Classified | null = null;
  let text = '';
  let isError = false;
  if (item.type === 'CommandExecution') {
    c = a.toolCall('', 'shell', { command: shellCommand(item) ?? '' }, at);
    text = str(item.aggregated_output) ?? '';
    isError = typeof item.exit_code === 'number' && item.exit_code !== 0;
  } else if (item.type === 'DynamicToolCall') {
    c = a.toolCall('', `${str(item.namespace) ?? ''}__${str(item.tool) ?? ''}`, item.arguments, at);
    text = resultText(item.content_items);
    isError = item.success === false;
  } else if (item.type === 'McpToolCall') {
    c = a.toolCall('', `mcp__${str(item.server) ?? ''}__${str(item.tool) ?? ''}`, item.arguments, at);
    text = resultText(obj(item.result)?.content ?? item.result ?? item.error);
    isError = item.error !== undefined && item.error !== null;
  } else return false;
  if (c) a.resultOf(c, text, isError, at);
  else a.otherResult();
  return item.type === 'CommandExecution' || item.type === 'DynamicToolCall' || item.type === 'McpToolCall';
}
