// Unit-tests the owner CLI's list tables: aligned columns, upper-case headers, one line per row, long cells capped.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { duration, renderTable } from './output.js';

test('renderTable aligns columns, flattens newlines and caps long cells', () => {
  const rows = [{ n: 'demo', r: 'claude', d: 'two\nlines' }, { n: 'a-much-longer-name', r: 'command', d: 'x'.repeat(200) }];
  const out = renderTable(rows, [{ header: 'name', value: (x) => x.n }, { header: 'runtime', value: (x) => x.r }, { header: 'detail', value: (x) => x.d }]);
  const lines = out.trimEnd().split('\n');
  assert.equal(lines.length, 3);
  assert.equal(lines[0], 'NAME                RUNTIME  DETAIL');
  assert.equal(lines[1], 'demo                claude   two lines');
  assert.equal(lines[2]!.length, 'a-much-longer-name  command  '.length + 80);
  assert.ok(lines[2]!.endsWith('…'));
});

test('duration is short and human', () => {
  assert.deepEqual([duration(null), duration(950), duration(1500), duration(125_000)], ['-', '950ms', '1.5s', '2m']);
});
