// Owns the words both engines search: any user string to safe full-text terms (quoted FTS5 terms on SQLite, a word list for
// plainto_tsquery on PostgreSQL), and the PostgreSQL index text tokenized the way FTS5 unicode61 does.

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
/** Removes diacritics as FTS5 unicode61 does by default (café and cafe are one word on both engines). */
const fold = (w: string) => w.normalize('NFKD').replace(/\p{M}+/gu, '').normalize('NFC');
/** plainto_tsquery input: folded words separated by spaces (never parsed as tsquery operators). Joined with | via replace in SQL. */
export const pgWords = (terms: readonly string[]) => terms.map(fold).join(' ');

/**
 * The text PostgreSQL indexes for a section: its words as FTS5 unicode61 sees them (runs of letters, digits and private-use
 * characters, lowercased, diacritics folded), one space apart. PostgreSQL's own parser would keep example.com, v1.2 or
 * foo—bar as single tokens and drop <tags>, so a search for "example" would find a section on SQLite and miss it here.
 */
export function pgIndexText(...parts: string[]): string {
  const out: string[] = [];
  for (const part of parts) for (const m of part.normalize('NFKC').toLowerCase().matchAll(TERM)) out.push(fold(m[0]));
  return out.join(' ');
}
