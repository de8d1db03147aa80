// Owns search snippets built from a section's text in JS: the `size`-token window holding the most distinct query terms
// (the earliest such), hits optionally marked, '…' where the text was cut; what FTS5's snippet() returned, without its
// per-row MATCH (about 20 µs a row in FTS5 against a few µs here).
import { foldTerm } from './topk.js';

const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;
const NON_ASCII = /[^\x00-\x7f]/;

/** `terms` are folded as FTS5 unicode61 folds tokens (lowercase, no diacritics). */
export function snippetOf(text: string, terms: ReadonlySet<string>, size: number, open = '', close = '', ellipsis = '…'): string {
  const toks: Array<{ s: number; e: number; term: string | undefined }> = [];
  for (const m of text.matchAll(TOKEN)) {
    const w = m[0].toLowerCase();
    const f = terms.has(w) ? w : NON_ASCII.test(w) ? foldTerm(w) : w;
    toks.push({ s: m.index!, e: m.index! + m[0].length, term: terms.has(f) ? f : undefined });
  }
  if (toks.length === 0) return '';
  // The window start with the most distinct terms in it (a sliding count), the earliest on ties.
  let best = 0;
  let bestN = -1;
  for (let i = 0; i < toks.length; i++) {
    if (i > 0 && !toks[i]!.term) continue; // a best window starts at a hit, or at the very start
    const seen = new Set<string>();
    for (let j = i; j < Math.min(toks.length, i + size); j++) if (toks[j]!.term) seen.add(toks[j]!.term!);
    if (seen.size > bestN) (best = i), (bestN = seen.size);
    if (bestN === terms.size) break;
  }
  // Keep the window within the text: a window near the end starts earlier so it still holds `size` tokens.
  const start = Math.max(0, Math.min(best, toks.length - size));
  const end = Math.min(toks.length, start + size);
  let out = start > 0 ? ellipsis : '';
  for (let i = start; i < end; i++) {
    const t = toks[i]!;
    if (i > start) out += text.slice(toks[i - 1]!.e, t.s);
    const word = text.slice(t.s, t.e);
    out += t.term ? `${open}${word}${close}` : word;
  }
  return end < toks.length ? out + ellipsis : out;
}
