// usage: node --import tsx /tmp/pgrun/pgsuite.ts <suite> [times]
import { startCluster } from './cluster.js';
import { spawn } from 'node:child_process';
const c = await startCluster();
const suite = process.argv[2]!; const n = Number(process.argv[3] ?? 1);
let fails = 0;
for (let i = 0; i < n; i++) await new Promise<void>((res) => {
  const ch = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', suite], { env: { ...process.env, AGENTTEAM_TEST_DB: c.url }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = ''; ch.stdout.on('data', (d) => (out += d)); ch.stderr.on('data', (d) => (out += d));
  ch.on('exit', (code) => { if (code !== 0) { fails++; console.log(out.slice(-3000)); } else console.log(/^# pass \d+/m.exec(out)?.[0]); res(); });
});
console.log('fails', fails, 'of', n);
await c.stop();
