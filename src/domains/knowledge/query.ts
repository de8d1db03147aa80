// Owns turning any user string into a safe full-text query: quoted FTS5 terms on SQLite, a plain word list for plainto_tsquery on PostgreSQL.

export const MAX_TERMS = 12;
export const MAX_TERM_CHARS = 64;
const TERM = /[\p{L}\p{N}\p{Co}]+/gu;

/**
 * The distinct search words of `input`, or [] when it has none. Security invariant: only token characters survive, so
 * no operator, column filter, quote or parenthesis reaches FTS5 or to_tsquery syntax.
 */
export function searchTerms(input: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const m of input.normalize('NFKC').matchAll(TERM)) {
    const w = [...m[0]].slice(0, MAX_TERM_CHARS).join('').toLowerCase();
    if (seen.has(w)) continue;
    seen.add(w);
    out.push(w);
    if (out.length === MAX_TERMS) break;
  }
  return out;
}

/** FTS5 MATCH: any term (OR), ranked by bm25 so sections with more terms come first. */
export const ftsMatch = (terms: readonly string[]) => terms.map((t) => `"${t}"`).join(' OR ');
/** plainto_tsquery input: words separated by spaces (never parsed as tsquery operators). Joined with | via replace in SQL. */
export const pgWords = (terms: readonly string[]) => terms.join(' ');
