// Rewrites src/catalog/action-inventory.json from the registered domains' declared actions (the catalog test checks they agree).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const code = "import('./src/domains/registry.ts').then((m) => process.stdout.write(JSON.stringify(m.assembledInventory(), null, 2) + '\\n'))";
const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8' });
if (r.status !== 0) {
  process.stderr.write(r.stderr);
  process.exit(1);
}
writeFileSync('src/catalog/action-inventory.json', r.stdout);
