// Checks the command's output choices: a progress bar only on a terminal stderr, a table on a terminal stdout, JSON otherwise; --since parsing.
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { CliError } from '../cli-error.js';
import { analyze, parseSince } from './analyze.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

function sink(isTTY: boolean): Writable & { isTTY: boolean; text: () => string } {
  let text = '';
  const w = new Writable({
    write(chunk, _enc, cb) {
      text += String(chunk);
      cb();
    },
  });
  return Object.assign(w, { isTTY, text: () => text });
}

test('on a terminal: a progress bar on stderr that reaches 100% and is cleared, and a table on stdout', async () => {
  const stdout = sink(true);
  const stderr = sink(true);
  await analyze({ from: FIXTURES }, { home: '/nonexistent', homeGiven: false, stdout, stderr });
  assert.match(stderr.text(), /\r\[#+\] 100% /);
  assert.ok(stderr.text().endsWith('\r'), 'the bar line is cleared before the report');
  assert.match(stdout.text(), /^AGENT +SESSIONS +REQ /m);
  assert.doesNotMatch(stdout.text(), /^\{/);
});

test('piped: no progress bar, JSON on stdout; --format table overrides', async () => {
  const stdout = sink(false);
  const stderr = sink(false);
  const r = await analyze({ from: FIXTURES }, { home: '/nonexistent', homeGiven: false, stdout, stderr });
  assert.equal(stderr.text(), '');
  assert.deepEqual(JSON.parse(stdout.text()).total, r.total);
  const table = sink(false);
  await analyze({ from: FIXTURES, format: 'table' }, { home: '/nonexistent', homeGiven: false, stdout: table, stderr });
  assert.match(table.text(), /^TOTAL /m);
});

test('--since takes YYYY-MM-DD or YYYYMMDD (UTC midnight) and refuses anything else with exit code 2', () => {
  assert.equal(parseSince('2026-12-05'), Date.UTC(2026, 11, 5));
  assert.equal(parseSince('20261205'), Date.UTC(2026, 11, 5));
  for (const bad of ['2026-02-30', '2026-12', 'yesterday', '2026-12-05T00:00']) {
    assert.throws(() => parseSince(bad), (e: unknown) => e instanceof CliError && e.exitCode === 2, bad);
  }
});
