// Runs node:test through tsx over the suite: unit tests beside the code (src/**/*.test.ts) and end-to-end tests (test/*.test.ts).
// --runtimes adds the opt-in real-runtime checks (test/runtimes/), --reliability runs test/reliability/ only.
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
else files = [...walk('src'), ...walk('test').filter((f) => !f.startsWith(join('test', 'reliability')) && !f.startsWith(join('test', 'runtimes')))];
const extra = args.filter((a) => !a.startsWith('--runtimes') && !a.startsWith('--reliability'));
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...extra, ...files.sort()], { stdio: 'inherit' });
process.exit(r.status ?? 1);
