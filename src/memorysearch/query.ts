// Owns query sanitizing for FTS5: any user string becomes either null (nothing searchable) or a MATCH expression of quoted terms.

/** At most this many terms reach FTS5; each term at most MAX_TERM_CHARS characters (longer ones are cut). */
export const MAX_TERMS = 12;
export const MAX_TERM_CHARS = 64;

/** The unicode61 tokenizer's token characters (letters, numbers, private use); everything else separates terms. */
const TERM = /([\p{L}\p{N}\p{Co}]+)(\*?)/gu;

export interface FtsQuery {
  /** Every term required (implicit AND). */
  all: string;
  /** Any term (OR), the fallback when `all` matches nothing; equal to `all` for one term. */
  any: string;
  /** The terms' words, unquoted, in query order; `prefix` when any term ends in `*`. */
  words: string[];
  prefix: boolean;
}

/**
 * Builds the MATCH expressions. Security invariant: user text never reaches FTS5 syntax: every term is a double-quoted
 * string of token characters only (so no operator, column filter, NEAR, quote or parenthesis survives), optionally
 * followed by `*` for a prefix search.
 */
export function toFtsQuery(input: string): FtsQuery | null {
  const terms: string[] = [];
  const words: string[] = [];
  let prefix = false;
  const seen = new Set<string>();
  for (const m of input.normalize('NFKC').matchAll(TERM)) {
    const word = [...m[1]!].slice(0, MAX_TERM_CHARS).join('');
    const term = `"${word}"${m[2] === '*' ? '*' : ''}`;
    const key = term.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    terms.push(term);
    words.push(word);
    if (m[2] === '*') prefix = true;
    if (terms.length === MAX_TERMS) break;
  }
  if (terms.length === 0) return null;
  return { all: terms.join(' '), any: terms.join(' OR '), words, prefix };
}
