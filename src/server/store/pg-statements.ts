// Owns the PostgreSQL statement text of domain SQL: `?` → $n, and a prepared-statement name for each fixed DML text.

/** A statement as sent: its PostgreSQL text and, for repeated DML, the name it is prepared under on each connection. */
export interface PgStatement {
  readonly text: string;
  readonly name?: string;
}

/**
 * Rewrites `?` placeholders to $1…$n, leaving string literals, quoted identifiers and comments alone.
 */
export function toPgPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      const stop = end < 0 ? sql.length : end + 1;
      out += sql.slice(i, stop);
      i = stop - 1; // a doubled quote inside a literal closes and reopens it: same text either way
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end < 0 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      const stop = end < 0 ? sql.length : end + 2;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (c === '?') out += `$${++n}`;
    else out += c;
  }
  return out;
}

/** Statements worth preparing: plain DML (utility statements such as SAVEPOINT or COMMIT stay unnamed). */
const DML = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i;

/**
 * One store's statement cache. Domain SQL is a small, fixed set of strings, so each distinct text is translated once
 * and, when it is DML, gets a name: node-postgres then parses it once per connection and later runs only Bind/Execute,
 * so PostgreSQL skips parse and planning on every repeat (measured: about half a page query's backend CPU). Past
 * `max` texts a statement is still translated but sent unnamed, so a caller building SQL dynamically cannot grow the
 * prepared statements of every connection without bound.
 */
export class StatementCache {
  private readonly byText = new Map<string, PgStatement>();

  constructor(private readonly max = 2000) {}

  get(sql: string): PgStatement {
    const hit = this.byText.get(sql);
    if (hit) return hit;
    const text = toPgPlaceholders(sql);
    if (this.byText.size >= this.max) return { text };
    const st: PgStatement = DML.test(text) ? { text, name: `at_${this.byText.size + 1}` } : { text };
    this.byText.set(sql, st);
    return st;
  }
}
