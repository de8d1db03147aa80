// Owns the suite's stand-in model API: a loopback endpoint that records what a runtime sends its model and answers only scripted turns.
//
// This is not a mock of our components: it stands where the model API would be (ANTHROPIC_BASE_URL for Claude Code and
// OpenCode's AI SDK provider; a custom Responses-API provider for Codex), so the suite reads exactly what a runtime puts
// in front of the model — the model-visible names and size of our inventory.
// Model requests are held open (no answer), which keeps the runtime alive and waiting until the test stops it, unless
// the test scripted a reply: then a Messages (or Responses) stream answers with one tool call or one text, so the
// runtime really calls our tool through its own MCP client and shows us the result it hands back to the model.
import { writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';

export interface ModelTool {
  name: string;
  description?: string;
  input_schema?: unknown;
  [k: string]: unknown;
}

export interface ModelRequest {
  tools?: ModelTool[];
  [k: string]: unknown;
}

/** A step predicate: the model request offers a tool named `name`. */
export const offers = (name: string) => (b: ModelRequest): boolean => (b.tools ?? []).some((x) => x.name === name);

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: unknown;
  is_error?: boolean;
}

/** The tool results of a request: Messages `tool_result` blocks, or Responses `function_call_output` items (as tool_result). */
export function toolResults(b: ModelRequest): ToolResultBlock[] {
  const messages = (Array.isArray(b.messages) ? b.messages : []) as { content?: unknown }[];
  const blocks = messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as ToolResultBlock[]) : [])).filter((c) => c?.type === 'tool_result');
  const items = (Array.isArray(b.input) ? b.input : []) as { type?: string; call_id?: string; output?: unknown }[];
  const outputs = items
    .filter((i) => i?.type === 'function_call_output' || i?.type === 'custom_tool_call_output')
    .map((i): ToolResultBlock => ({ type: 'tool_result', tool_use_id: i.call_id ?? '', content: i.output }));
  return [...blocks, ...outputs];
}

/**
 * One tool call the scripted model makes; `namespace` is the Responses-API namespace tool that offers `name` (Codex).
 * A `custom` call (Responses `custom_tool_call`, e.g. Codex code mode's `exec`) carries `input` as raw text.
 */
export interface ScriptedCall {
  id: string;
  name: string;
  namespace?: string;
  custom?: boolean;
  input: unknown;
}

/** The model's side of one tool call: call `call` when the request offers it, end the turn once its result came back. */
export function scriptOneCall(call: ScriptedCall): (b: ModelRequest) => ModelReply | undefined {
  return (b) => {
    if (toolResults(b).some((r) => r.tool_use_id === call.id)) return { text: 'done' };
    if ((b.tools ?? []).some((x) => x.name === (call.namespace ?? call.name))) return { toolUse: call };
    return undefined; // e.g. a title request: held
  };
}

/** Usage figures a scripted reply reports, in Messages terms (Responses: input includes the cached part). */
export interface ModelUsage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** A scripted model turn: call one tool, or say something and end the turn. */
export type ModelReply = { toolUse: ScriptedCall } | { text: string };

export interface ModelCapture {
  url: string;
  /** Bodies (and headers) of every model request (Anthropic Messages or OpenAI Responses API), in arrival order. */
  requests: { path: string; body: ModelRequest; headers: Record<string, string | string[] | undefined> }[];
  /** `METHOD path` of every request that arrived, answered or not (diagnostics). */
  seen: string[];
  /** A model request gets `script(body, headers)`'s reply when it returns one; otherwise it is held open. */
  script: ((body: ModelRequest, headers: Record<string, string | string[] | undefined>) => ModelReply | undefined) | undefined;
  /** The usage a scripted reply reports (default: 1 input, 1 output token); e.g. token-capture.ts reports realistic figures. */
  usage: ((body: ModelRequest) => ModelUsage) | undefined;
  /** Resolves with the body of the first model request matching `pred`. */
  waitFor(pred: (body: ModelRequest) => boolean, timeoutMs: number): Promise<ModelRequest>;
  /** Resolves with the tool_result block of call `id` as the runtime hands it back to the model. */
  waitForToolResult(id: string, timeoutMs: number): Promise<ToolResultBlock>;
  close(): Promise<void>;
}

export async function startModelCapture(): Promise<ModelCapture> {
  const requests: ModelCapture['requests'] = [];
  const seen: string[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      seen.push(`${req.method} ${path}`);
      // Claude Code posts to <base>/v1/messages, the AI SDK (OpenCode) to <base>/messages, Codex to <base_url>/responses.
      if (req.method === 'POST' && /\/(messages|responses)$/.test(path)) {
        try {
          requests.push({ path, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ModelRequest, headers: req.headers });
        } catch {
          requests.push({ path, body: {}, headers: req.headers });
        }
        for (const w of waiters) w();
        const reply = capture.script?.(requests.at(-1)!.body, req.headers);
        const usage = capture.usage?.(requests.at(-1)!.body) ?? { input: 1, output: 1 };
        if (reply) (path.endsWith('/responses') ? writeResponsesStream : writeMessagesStream)(res, reply, usage);
        return; // otherwise held open: the runtime waits for its model until the test stops it
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'capture endpoint' } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const capture: ModelCapture = {
    url: `http://127.0.0.1:${port}`,
    script: undefined,
    usage: undefined,
    requests,
    seen,
    waitFor(pred, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = requests.find((r) => pred(r.body));
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found.body);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no model request matched (requests: ${requests.map((r) => r.path).join(', ') || 'none'})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async waitForToolResult(id, timeoutMs) {
      const b = await capture.waitFor((x) => toolResults(x).some((r) => r.tool_use_id === id), timeoutMs);
      return toolResults(b).find((r) => r.tool_use_id === id)!;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  return capture;
}

/** Writes one assistant message as an Anthropic Messages SSE stream (the event sequence both runtimes parse). */
function writeMessagesStream(res: ServerResponse, reply: ModelReply, u: ModelUsage): void {
  const ev = (type: string, data: object) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const usage = { input_tokens: u.input, output_tokens: 1, cache_creation_input_tokens: u.cacheWrite ?? 0, cache_read_input_tokens: u.cacheRead ?? 0 };
  ev('message_start', { message: { id: 'msg_capture', type: 'message', role: 'assistant', model: 'capture', content: [], stop_reason: null, stop_sequence: null, usage } });
  if ('toolUse' in reply) {
    const { id, name, input } = reply.toolUse;
    ev('content_block_start', { index: 0, content_block: { type: 'tool_use', id, name, input: {} } });
    ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(input) } });
  } else {
    ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: reply.text } });
  }
  ev('content_block_stop', { index: 0 });
  ev('message_delta', { delta: { stop_reason: 'toolUse' in reply ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: u.output } });
  ev('message_stop', {});
  res.end();
}

/** Writes one model turn as an OpenAI Responses SSE stream: a namespaced function_call item, or an assistant message. */
function writeResponsesStream(res: ServerResponse, reply: ModelReply, u: ModelUsage): void {
  const ev = (type: string, data: object) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  ev('response.created', { response: { id: 'resp_capture' } });
  const call = 'toolUse' in reply ? reply.toolUse : undefined;
  const item = !call
    ? { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: (reply as { text: string }).text }] }
    : call.custom
      ? { type: 'custom_tool_call', call_id: call.id, name: call.name, ...(call.namespace ? { namespace: call.namespace } : {}), input: String(call.input) }
      : { type: 'function_call', call_id: call.id, name: call.name, namespace: call.namespace ?? null, arguments: JSON.stringify(call.input) };
  ev('response.output_item.done', { output_index: 0, item });
  const input = u.input + (u.cacheRead ?? 0);
  const cached = u.cacheRead ? { cached_tokens: u.cacheRead } : null;
  ev('response.completed', { response: { id: 'resp_capture', usage: { input_tokens: input, input_tokens_details: cached, output_tokens: u.output, output_tokens_details: null, total_tokens: input + u.output } } });
  res.end();
}

/** The user's own Codex config: a model provider (the capture at `modelUrl`) and no model, so Codex picks its default model. */
export function writeCodexCaptureProvider(codexHome: string, modelUrl: string): void {
  writeFileSync(
    join(codexHome, 'config.toml'),
    `model_provider = "capture"\n[model_providers.capture]\nname = "capture"\nbase_url = ${JSON.stringify(`${modelUrl}/v1`)}\nenv_key = "CAPTURE_MODEL_KEY"\nwire_api = "responses"\n`,
  );
}
