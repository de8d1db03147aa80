// Tests section splitting by serialized bytes: the per-code-point cost equals textBytes, bodies stay within the bound, nothing is lost.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { clipText, textBytes, TRUNCATED_MARKER } from '../../shared/bounds.js';
import { HEADING_BYTES_MAX, KB_BOUNDS, SECTION_BYTES_MAX } from './contract.js';
import { codePointBytes, splitSections, titleOf } from './sections.js';

const costOf = (s: string) => {
  let n = 0;
  for (let i = 0; i < s.length; ) {
    const cp = s.codePointAt(i)!;
    n += codePointBytes(cp);
    i += cp > 0xffff ? 2 : 1;
  }
  return n;
};

test('codePointBytes adds up to textBytes for any string (controls, quotes, backslashes, astral, lone surrogates)', () => {
  fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => assert.equal(costOf(s), textBytes(s))), { numRuns: 500 });
  for (const s of ['\u0000\u001f\b\t\n\f\r', '"\\', '\u007f\u0080\u07ff\u0800\uffff', '😀', '\ud800', '\udc00x', '\u2028\u2029']) assert.equal(costOf(s), textBytes(s), JSON.stringify(s));
});

test('a headingless document splits into bodies within SECTION_BYTES_MAX that concatenate back to it', () => {
  const docs = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 30_000 }),
    fc.array(fc.constantFrom('\u0001', '"', '\\', 'a', '😀', '\n', 'é', ' '), { maxLength: 20_000 }).map((a) => a.join('')),
  );
  fc.assert(
    fc.property(docs, (raw) => {
      const doc = raw.replace(/\r/g, '').replace(/^#/gm, '_');
      const sections = splitSections(doc);
      for (const s of sections) assert.ok(textBytes(s.body) <= SECTION_BYTES_MAX, `${textBytes(s.body)} bytes`);
      if (doc.trim().length > 0) assert.equal(sections.map((s) => s.body).join(''), doc);
    }),
    { numRuns: 60 },
  );
});

test('long sections are cut after a newline past half the bound; one long line is cut on a code point boundary', () => {
  const lines = Array.from({ length: 400 }, (_, i) => `line ${i} ${'x'.repeat(40)}`).join('\n');
  const parts = splitSections(`# Big\n${lines}`);
  assert.ok(parts.length >= 2 && parts.every((p) => p.heading === 'Big'));
  for (const p of parts.slice(0, -1)) assert.ok(p.body.endsWith('\n') && textBytes(p.body) > SECTION_BYTES_MAX / 2);
  const astral = splitSections('😀'.repeat(5000));
  assert.ok(astral.length >= 3 && astral.every((p) => Array.from(p.body).every((c) => c === '😀')));
  assert.equal(astral.map((p) => p.body).join(''), '😀'.repeat(5000));
});

test('headings and titles are clipped in bytes; an empty heading section is kept; an empty document is one empty section', () => {
  const long = '"'.repeat(2000);
  const [s] = splitSections(`# ${long}\nbody`);
  assert.equal(s!.heading, clipText(long, HEADING_BYTES_MAX));
  assert.ok(s!.heading.endsWith(TRUNCATED_MARKER) && textBytes(s!.heading) <= HEADING_BYTES_MAX);
  assert.ok(textBytes(titleOf('a.md', [s!])) <= KB_BOUNDS.title.bytes);
  assert.deepEqual(splitSections('# A\ntext\n## B\n').map((x) => x.heading), ['A', 'B']);
  assert.deepEqual(splitSections(''), [{ heading: '', body: '' }]);
  assert.equal(titleOf('ops/deploy.md', splitSections('no heading')), 'deploy');
});
