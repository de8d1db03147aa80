// Runs node:test through tsx over the suite: unit tests beside the code (src/**/*.test.ts) and end-to-end tests (test/*.test.ts).
// --runtimes runs the opt-in real-runtime checks (test/runtimes/), --reliability test/reliability/, --postgres test/postgres/
// (which the default run includes: it needs PostgreSQL 15 binaries, which .ci/run installs when missing).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (name === 'node_modules') continue;
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const args = process.argv.slice(2);
let files;
if (args.includes('--reliability')) files = walk('test/reliability');
else if (args.includes('--runtimes')) files = walk('test/runtimes');
else if (args.includes('--postgres')) files = walk('test/postgres');
else files = [...walk('src'), ...walk('test').filter((f) => !f.startsWith(join('test', 'reliability')) && !f.startsWith(join('test', 'runtimes')))];
const extra = args.filter((a) => !['--runtimes', '--reliability', '--postgres'].includes(a));
// TAP on stdout as before; the slowest files (scripts/file-times.mjs) on stderr at the end.
const reporters = ['--test-reporter=tap', '--test-reporter-destination=stdout', '--test-reporter=./scripts/file-times.mjs', '--test-reporter-destination=stderr'];
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...reporters, ...extra, ...files.sort()], { stdio: 'inherit' });
process.exit(r.status ?? 1);
