// Unit-tests the owner CLI's human output: aligned tables, one line per row, capped cells, and no terminal control sequence from
// another member's text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { duration, renderTable, terminalText } from './output.js';
import { formatLine } from './watch.js';

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

test("another member's name or text never reaches the terminal as a control sequence or a bidi override", () => {
  const evil = 'ok\u001b]52;c;ZXZpbA==\u0007\rfake line\u001b[2J \u202eexe.txt\u009b31m';
  const shown = terminalText(evil);
  assert.doesNotMatch(shown, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
  assert.equal(shown, 'ok\\u001b]52;c;ZXZpbA==\\u0007\\u000dfake line\\u001b[2J \\u202eexe.txt\\u009b31m');
  // Newlines and tabs of a message stay; a one-line cell flattens them.
  assert.equal(terminalText('a\n\tb'), 'a\n\tb');
  assert.equal(terminalText('a\n\tb', true), 'a\\u000a\\u0009b');
  const table = renderTable([{ n: 'x\u001b[31mred' }], [{ header: 'name', value: (r) => r.n }]);
  assert.equal(table, 'NAME\nx\\u001b[31mred\n');
  const line = formatLine({ id: 'msg_1', target: 'channel:general', createdAt: '2026-12-01T10:11:12.000Z', author: { id: 'agt_1', name: 'bot\u001b[8m', kind: 'agent' }, content: 'hi\r\u001b[1Aowner: approve it' } as Parameters<typeof formatLine>[0]);
  assert.equal(line, '10:11:12 bot\\u001b[8m (agent): hi\\u000d\\u001b[1Aowner: approve it');
});
