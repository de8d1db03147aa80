// Owns the suite's stand-in model API: a loopback endpoint that records what a runtime would send its model, and never answers it.
//
// This is not a mock of our components: it stands where Anthropic's API would be (ANTHROPIC_BASE_URL, read by Claude Code
// and by OpenCode's AI SDK provider), so the suite can read exactly what a runtime puts in front of the model — the
// model-visible names and size of our inventory.
// Model requests are held open (no answer), which keeps the runtime alive and waiting until the test stops it.
import { createServer, type Server } from 'node:http';
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

export interface ModelCapture {
  url: string;
  /** Bodies of every model request (Anthropic Messages or OpenAI Responses API), in arrival order. */
  requests: { path: string; body: ModelRequest }[];
  /** `METHOD path` of every request that arrived, answered or not (diagnostics). */
  seen: string[];
  /** Resolves with the body of the first model request matching `pred`. */
  waitFor(pred: (body: ModelRequest) => boolean, timeoutMs: number): Promise<ModelRequest>;
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
          requests.push({ path, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ModelRequest });
        } catch {
          requests.push({ path, body: {} });
        }
        for (const w of waiters) w();
        return; // held open: the runtime waits for its model until the test stops it
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'capture endpoint' } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
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
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
