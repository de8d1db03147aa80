// Tests search snippets cut in JS: the window with the most distinct query terms, hits marked, ellipses where cut, folding.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { snippetOf } from './snippet.js';

const text = 'one two three four five alpha six seven eight nine ten eleven twelve beta alpha thirteen fourteen';

test('the window holding the most distinct terms wins, hits are marked, cuts get an ellipsis', () => {
  assert.equal(snippetOf(text, new Set(['beta', 'alpha']), 4, '[', ']'), '…[beta] [alpha] thirteen fourteen');
  assert.equal(snippetOf(text, new Set(['alpha']), 3, '[', ']'), '…[alpha] six seven…', 'the earliest hit on a tie');
  assert.equal(snippetOf(text, new Set(['one']), 2), 'one two…');
  assert.equal(snippetOf('a short text', new Set(['short']), 16), 'a short text', 'nothing cut: no ellipsis');
  assert.equal(snippetOf('', new Set(['x']), 5), '');
});

test('case and diacritics fold as FTS5 unicode61 folds them; punctuation between tokens is kept', () => {
  assert.equal(snippetOf('Le Café, naïve!', new Set(['cafe', 'naive']), 8, '[', ']'), 'Le [Café], [naïve]');
  assert.equal(snippetOf('no match here', new Set(['zzz']), 2), 'no match…');
});

test('one term in ASCII text (the indexOf path) cuts the same window as the general path', () => {
  const long = `${'lead words here '.repeat(3)}the Target word then more words follow after it until the end of this text`;
  assert.equal(snippetOf(long, new Set(['target']), 5, '[', ']'), '…[Target] word then more words…');
  assert.equal(snippetOf('targets and target', new Set(['target']), 2, '[', ']'), '…and [target]', 'whole words only; near the end the window starts earlier');
  assert.equal(snippetOf('target', new Set(['target']), 3), 'target');
});
