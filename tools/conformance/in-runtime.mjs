// Runs inside the runtime the daemon launched (under the pinned Node 22): both conformance suites' server scenarios
// against the runtime's own MCP endpoint, on the canonical route and its legacy alias; results go to OUT.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = process.argv[2];
const SUITES = { 2025: 'conformance-2025', 2026: 'conformance-2026' };
/** Every server scenario of a suite: --suite all includes its pending, draft and extension scenarios. */
const SUITE_ARGS = ['server', '--suite', 'all'];
const RUN_TIMEOUT_MS = 10 * 60_000;

const canonical = new URL(process.env.AGENTTEAM_MCP_URL ?? '');
const m = /^\/api\/internal\/mcp\/servers\/([^/]+)\/agents\/([^/]+)$/.exec(canonical.pathname);
if (!OUT || !m || !process.env.AGENTTEAM_MCP_TOKEN) {
  process.stderr.write('in-runtime: needs OUT and the runtime env (AGENTTEAM_MCP_URL, AGENTTEAM_MCP_TOKEN)\n');
  process.exit(2);
}
const ROUTES = { canonical: canonical.href, legacy: new URL(`/mcp/agentteam/${m[1]}/${m[2]}`, canonical.origin).href };

function run(args, logFile) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      writeFileSync(logFile, Buffer.concat(chunks));
      resolve({ code, signal });
    });
  });
}

const runs = [];
for (const [route, url] of Object.entries(ROUTES)) {
  for (const [suite, pkg] of Object.entries(SUITES)) {
    const dir = join(OUT, route, suite);
    mkdirSync(dir, { recursive: true });
    const cli = join(HERE, 'node_modules', pkg, 'dist', 'index.js');
    const version = JSON.parse(readFileSync(join(HERE, 'node_modules', pkg, 'package.json'), 'utf8')).version;
    const r = await run(['--import', join(HERE, 'bearer.mjs'), cli, ...SUITE_ARGS, '--url', url, '-o', dir], join(OUT, `${route}-${suite}.log`));
    runs.push({ route, suite, version, code: r.code, signal: r.signal, scenarios: readdirSync(dir).length });
  }
}
// Secrets stay secret: the token must appear in no result or log the suites wrote.
const token = process.env.AGENTTEAM_MCP_TOKEN;
const leaked = [];
const walk = (d) => {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (readFileSync(p, 'utf8').includes(token)) leaked.push(p.slice(OUT.length + 1));
  }
};
walk(OUT);
writeFileSync(join(OUT, 'runs.json'), JSON.stringify({ node: process.version, routes: ROUTES, runs, leaked }, null, 2));
