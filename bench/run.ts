// Owns `npm run bench`: builds the binary, runs each benchmark (or --only=a,b), prints tables with goals and writes bench/results/*.json.
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { benchAttachments } from './attachments.js';
import { benchExec } from './exec.js';
import { benchGrowth } from './growth.js';
import { benchMcp, mcpFixture } from './mcp.js';
import { benchMemory } from './memory.js';
import { benchKb } from './kb.js';
import { benchPagination } from './pagination.js';
import { benchPostgres } from './postgres.js';
import { benchSearchPath } from './search-path.js';
import { benchTokens } from './tokens.js';
import { benchTurns } from './turns.js';
import { benchOptions, goalLines, writeResult, type BenchReport } from './report.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.find((a) => a.startsWith('--only='))?.slice(7).split(',');
const want = (n: string) => !only || only.includes(n);
const listArg = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3).split(',');
const methods = listArg('methods');
const conns = listArg('conns')?.map(Number);
const opts = { ...benchOptions(quick), ...(methods ? { methods } : {}), ...(conns ? { connections: conns } : {}) };

const root = resolve(import.meta.dirname, '..');
if (!args.includes('--no-build')) {
  const b = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) throw new Error('build failed; fix it or pass --no-build to use the existing dist/');
}

const started = performance.now();
process.stdout.write(`agentteam bench${quick ? ' --quick' : ''}: node ${process.version}, ${cpus().length} CPUs, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}\n`);
const reports: BenchReport[] = [];
function show(r: BenchReport): void {
  const file = writeResult(r, opts);
  process.stdout.write(`\n== ${r.name} ==\n${r.table}\n${r.goals.length ? `goals:\n${goalLines(r.goals)}\n` : ''}(${file})\n`);
  reports.push(r);
}

if (want('mcp') || want('exec')) {
  const fx = await mcpFixture();
  try {
    if (want('mcp')) show(await benchMcp(fx, opts));
    if (want('exec')) show(await benchExec(fx, opts));
  } finally {
    await fx.daemon.dispose();
  }
}

if (want('pagination')) show(await benchPagination(opts));
if (want('growth')) show(await benchGrowth(opts));
if (want('memory')) show(await benchMemory(opts));
if (want('kb')) show(await benchKb(opts));
if (want('search-path')) show(await benchSearchPath(opts));
if (want('attachments')) show(await benchAttachments(opts));
if (want('postgres')) show(await benchPostgres(opts));
if (want('tokens')) show(await benchTokens());
if (want('turns')) show(await benchTurns(opts));

const all = reports.flatMap((r) => r.goals);
process.stdout.write(`\nload average at end ${loadavg().map((x) => x.toFixed(2)).join(' ')}\n`);
process.stdout.write(`\n${all.filter((g) => g.met).length}/${all.length} goals met; ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
