// Bundles the CLI entries with esbuild: dist/cli.mjs (owner CLI; daemon and server in lazily loaded chunks), dist/exec.mjs (the fast exec path), dist/server-worker.mjs,
// dist/codex-turn.mjs (the Codex app-server turn helper the codex driver runs), and the console page into dist/console/ (Preact, no CDN).
import { build } from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import { BANNER, buildExec, EXTERNAL } from './exec-bundle.mjs';

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  // Native or worker-spawning packages stay external and resolve from node_modules.
  external: EXTERNAL,
  banner: BANNER,
};

// server-worker.mjs is the embedded AgentTeam Server's worker-thread entry; the daemon (in cli.mjs) finds it beside itself.
const main = await build({
  ...common,
  metafile: true,
  entryPoints: { cli: 'src/cli/main.ts', 'server-worker': 'src/cli/server-worker.ts', 'codex-turn': 'src/runtime/drivers/codex-turn.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  // Code a command does not use (each top-level command's module, the daemon, the server, joining) sits in chunks the CLI imports when it runs; chunks
  // stay beside the entries so import.meta.url-relative paths (server-worker.mjs, codex-turn.mjs, ../bin) still resolve.
  splitting: true,
});
// dist/exec.mjs: the fast exec path, with the registry's Exec facet frozen at build time (exec-bundle.mjs).
const exec = await buildExec('dist', { sourcemap: 'linked' });
// Chunk names carry a content hash: files an earlier build wrote and this one did not are removed.
const written = new Set([...Object.keys(main.metafile.outputs), ...exec].map((f) => basename(f)));
for (const f of readdirSync('dist')) if (/\.mjs(\.map)?$/.test(f) && !written.has(f)) rmSync(`dist/${f}`);
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
