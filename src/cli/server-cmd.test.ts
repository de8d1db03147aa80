// Unit-tests `server start`'s shared admin token file: created once, never replaced by a second process starting at the same time.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadOrCreateSharedSecret } from './server-cmd.js';

test('the admin token file is created 0600 once; a process that lost the race takes the winner\'s token instead of replacing it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-token-'));
  try {
    const a = join(dir, 'a.token');
    assert.equal(loadOrCreateSharedSecret(a, () => 'ata_first'), 'ata_first');
    assert.equal(statSync(a).mode & 0o777, 0o600);
    assert.equal(loadOrCreateSharedSecret(a, () => 'ata_second'), 'ata_first');
    // Another server process creates the file while this one makes its token.
    const b = join(dir, 'b.token');
    const got = loadOrCreateSharedSecret(b, () => (writeFileSync(b, 'ata_other\n', { mode: 0o600 }), 'ata_mine'));
    assert.equal(got, 'ata_other');
    assert.equal(readFileSync(b, 'utf8'), 'ata_other\n');
    assert.deepEqual(readdirSync(dir).sort(), ['a.token', 'b.token'], 'no temp file left');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
