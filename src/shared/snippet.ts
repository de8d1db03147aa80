// Owns search snippets built from a section's text in JS: the `size`-token window holding the most distinct query terms
// (the earliest such), hits optionally marked, '…' where the text was cut; what FTS5's snippet() returned, without its
// per-row MATCH (about 20 µs a row in FTS5 against a few µs here).
import { foldTerm } from './topk.js';

const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;
/** The same tokens in ASCII text (after lowercasing), several times faster than the Unicode classes. */
const ASCII_TOKEN = /[a-z0-9]+/g;
const NON_ASCII = /[^\x00-\x7f]/;

/** `terms` are folded as FTS5 unicode61 folds tokens (lowercase, no diacritics). */
export function snippetOf(text: string, terms: ReadonlySet<string>, size: number, open = '', close = '', ellipsis = '…'): string {
  if (terms.size === 1) {
    const fast = oneTermAscii(text, [...terms][0]!, size, open, close, ellipsis);
    if (fast !== undefined) return fast;
  }
  // Lowercased once when that keeps every offset (it does unless a character changes length), else per token.
  const lower = text.toLowerCase();
  const lowered = lower.length === text.length;
  const src = lowered ? lower : text;
  const fold = NON_ASCII.test(src);
  const starts: number[] = [];
  const ends: number[] = [];
  const hits: Array<string | undefined> = [];
  let stopAt = -1; // with one term, the first hit's window is the answer: tokens past it are not needed
  let more = false;
  const re = fold || !lowered ? TOKEN : ASCII_TOKEN;
  re.lastIndex = 0;
  for (let m = re.exec(src); m !== null; m = re.exec(src)) {
    if (stopAt >= 0 && starts.length >= stopAt) {
      more = true;
      break;
    }
    const w = lowered ? m[0] : m[0].toLowerCase();
    const f = fold ? foldTerm(w) : w;
    const term = terms.has(f) ? f : undefined;
    if (term && stopAt < 0 && terms.size === 1) stopAt = Math.max(starts.length + size, size);
    starts.push(m.index);
    ends.push(m.index + m[0].length);
    hits.push(term);
  }
  const n = starts.length;
  if (n === 0) return '';
  // The window start with the most distinct terms in it, the earliest on ties (a best window starts at a hit or at 0).
  let best = 0;
  let bestN = -1;
  for (let i = 0; i < n; i++) {
    if (i > 0 && !hits[i]) continue;
    const seen = new Set<string>();
    for (let j = i; j < Math.min(n, i + size); j++) if (hits[j]) seen.add(hits[j]!);
    if (seen.size > bestN) (best = i), (bestN = seen.size);
    if (bestN === terms.size) break;
  }
  // A window near the end starts earlier so it still holds `size` tokens.
  const start = Math.max(0, Math.min(best, n - size));
  const end = Math.min(n, start + size);
  let out = start > 0 ? ellipsis : '';
  for (let i = start; i < end; i++) {
    if (i > start) out += text.slice(ends[i - 1]!, starts[i]!);
    const word = text.slice(starts[i]!, ends[i]!);
    out += hits[i] ? `${open}${word}${close}` : word;
  }
  return end < n || more ? out + ellipsis : out;
}

const WORD_CHAR = /[a-z0-9]/;

/**
 * One term in ASCII text: its first whole-word occurrence found by indexOf, then only the window's tokens read. Undefined
 * (take the general path) when the text is not ASCII or the window would run past the end (it then starts earlier).
 */
function oneTermAscii(text: string, term: string, size: number, open: string, close: string, ellipsis: string): string | undefined {
  if (NON_ASCII.test(text) || NON_ASCII.test(term)) return undefined;
  const lower = text.toLowerCase();
  let at = -1;
  for (let from = 0; ; from = at + 1) {
    at = lower.indexOf(term, from);
    if (at < 0) return undefined;
    if ((at === 0 || !WORD_CHAR.test(lower[at - 1]!)) && !WORD_CHAR.test(lower[at + term.length] ?? ' ')) break;
  }
  ASCII_TOKEN.lastIndex = at;
  const starts: number[] = [];
  const ends: number[] = [];
  for (let m = ASCII_TOKEN.exec(lower); m !== null && starts.length <= size; m = ASCII_TOKEN.exec(lower)) (starts.push(m.index), ends.push(m.index + m[0].length));
  if (starts.length < size) return undefined;
  // Tokens before the hit exist when any word character precedes it.
  let out = /[a-z0-9]/.test(lower.slice(0, at)) ? ellipsis : '';
  for (let i = 0; i < size; i++) {
    if (i > 0) out += text.slice(ends[i - 1]!, starts[i]!);
    const word = text.slice(starts[i]!, ends[i]!);
    out += word.toLowerCase() === term ? `${open}${word}${close}` : word;
  }
  return starts.length > size ? out + ellipsis : out;
}
