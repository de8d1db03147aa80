// Bundles the CLI entries with esbuild: dist/cli.mjs (owner CLI + daemon + server), dist/exec.mjs (the fast exec path), dist/server-worker.mjs,
// dist/codex-turn.mjs (the Codex app-server turn helper the codex driver runs).
import { build } from 'esbuild';
import { chmodSync } from 'node:fs';

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  // Native or worker-spawning packages stay external and resolve from node_modules.
  external: ['better-sqlite3', 'pino', 'thread-stream', 'pino-pretty'],
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
