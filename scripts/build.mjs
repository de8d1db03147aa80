// Bundles the CLI entries with esbuild: dist/cli.mjs (owner CLI + daemon + server), dist/exec.mjs (the fast exec path), dist/server-worker.mjs,
// dist/codex-turn.mjs (the Codex app-server turn helper the codex driver runs), and the console page into dist/console/ (Preact, no CDN).
import { build } from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  // Native or worker-spawning packages stay external and resolve from node_modules; so does gpt-tokenizer (MBs of
  // tables), imported only when `agentteam token analyze` runs, so no other command pays for it.
  external: ['better-sqlite3', 'pino', 'thread-stream', 'pino-pretty', 'gpt-tokenizer'],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
};

// server-worker.mjs is the embedded AgentTeam Server's worker-thread entry; the daemon (in cli.mjs) finds it beside itself.
await build({
  ...common,
  entryPoints: { cli: 'src/cli/main.ts', exec: 'src/cli/exec/main.ts', 'server-worker': 'src/cli/server-worker.ts', 'codex-turn': 'src/runtime/drivers/codex-turn.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
});
chmodSync('bin/agentteam', 0o755);

// The console's front end: one browser bundle the daemon serves from dist/console (src/console/assets.ts).
mkdirSync('dist/console', { recursive: true });
await build({
  entryPoints: { app: 'src/console/web/main.tsx' },
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: 'es2020',
  minify: true,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
  outdir: 'dist/console',
});
for (const f of ['index.html', 'app.css']) copyFileSync(`src/console/web/${f}`, `dist/console/${f}`);
