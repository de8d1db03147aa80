// Owns the exact top-k over impact-ordered postings that both SQLite full-text indexes (memory and knowledge) use for frequent
// terms: FTS5's bm25 reproduced term by term, the threshold algorithm that stops reading lists early, and FTS5's size records.

/** FTS5 bm25's constants (fts5_aux.c). */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/**
 * FTS5's idf: log((N - n + 0.5) / (n + 0.5)), and 1e-6 when that is not positive (a word in over half the rows). `ln` is
 * that logarithm as SQLite's C library computes it (IDF_SQL): V8's Math.log may differ in the last bit, and scores must
 * equal FTS5's to the bit for ties to order the same.
 */
export function bm25Idf(ln: number): number {
  return ln <= 0 ? 1e-6 : ln;
}
/** SQLite: the logarithm bm25Idf needs for each df of a JSON array (param 1: rows, param 2: the array), in order. */
export const IDF_SQL = 'SELECT ln((? - value + 0.5) / (value + 0.5)) AS ln FROM json_each(?) ORDER BY key';

/** One term's bm25 weight in a row of `dl` tokens holding it `tf` times, as fts5_aux.c computes it (without the idf). */
export function bm25Weight(tf: number, dl: number, avgdl: number): number {
  return (tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * dl) / avgdl));
}

/** SQLite varints as FTS5 writes them (big-endian 7-bit groups, a ninth byte of 8 bits); returns [value, next offset]. */
function varint(b: Uint8Array, at: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const c = b[at + i]!;
    v = v * 128 + (c & 0x7f);
    if (c < 0x80) return [v, at + i + 1];
  }
  return [v * 256 + b[at + 8]!, at + 9];
}

/** FTS5's averages record (`<table>_data` row 1): rows and tokens over all columns, i.e. bm25's N and N × avgdl. */
export function fts5Totals(block: Uint8Array): { rows: number; tokens: number } {
  let [rows, at] = varint(block, 0);
  let tokens = 0;
  while (at < block.length) {
    const [n, next] = varint(block, at);
    tokens += n;
    at = next;
  }
  return { rows, tokens };
}

/** A row's size in tokens over all its columns, from FTS5's `<table>_docsize` blob. */
export function fts5DocSize(sz: Uint8Array): number {
  let d = 0;
  for (let at = 0; at < sz.length; ) {
    const [n, next] = varint(sz, at);
    d += n;
    at = next;
  }
  return d;
}

const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;
/** How FTS5 unicode61 folds a token: lowercase, diacritics removed. */
export const foldTerm = (w: string) => w.normalize('NFKD').replace(/\p{M}+/gu, '').normalize('NFC').toLowerCase();

/** Occurrences of each of `terms` (folded) in `texts`, tokenized as unicode61 does. */
export function termCounts(terms: ReadonlySet<string>, ...texts: string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const text of texts) {
    for (const m of text.toLowerCase().matchAll(TOKEN)) {
      const w = terms.has(m[0]) ? m[0] : /[^\x00-\x7f]/.test(m[0]) ? foldTerm(m[0]) : undefined;
      if (w !== undefined && terms.has(w)) out.set(w, (out.get(w) ?? 0) + 1);
    }
  }
  return out;
}

/** A posting of an impact-ordered list: key is bm25Weight(tf, dl, aRef), the list's order (descending). */
export interface Posting {
  rid: number;
  key: number;
  tf: number;
  dl: number;
}

/**
 * One query term: a frequent term's postings are read in key order (`aRef`: the average length its keys were computed with);
 * a rare term comes whole, each match with its exact contribution (FTS5's own single-term bm25).
 */
export type TermList = { idf: number; aRef: number } | { idf: number; all: Map<number, number> };

interface Cand {
  part: Float64Array;
  known: number;
  has: number;
}

/**
 * Fagin's threshold algorithm, exact for bm25: sorted access on the frequent terms' lists (a chunk each per round), random
 * access for every candidate's other terms, and a stop once the k-th best score exceeds what any unseen row could reach
 * (the sum of each list's next key, scaled by avgdl/aRef when the average grew since the keys were written: a weight grows
 * at most by that factor). `and`: only rows holding every term count. Scores are summed in term order, as FTS5 sums them.
 */
export class ThresholdTopK {
  private readonly cand = new Map<number, Cand>();
  private readonly bound: number[];
  private readonly open: boolean[];
  private readonly after: Array<{ key: number; rid: number } | undefined>;
  private pend: Array<[number, number]> = [];
  private readonly all: number;
  read = 0;

  constructor(private readonly lists: readonly TermList[], private readonly k: number, private readonly and: boolean, private readonly avgdl: number) {
    this.all = (1 << lists.length) - 1;
    this.open = lists.map((l) => 'aRef' in l);
    this.bound = lists.map((l) => ('aRef' in l ? l.idf * bm25Weight(Number.MAX_SAFE_INTEGER, 0, 1) * Math.max(1, avgdl / l.aRef) : 0));
    this.after = lists.map(() => undefined);
    for (const l of lists) if ('all' in l) for (const rid of l.all.keys()) this.candidate(rid);
  }

  /** The sorted lists still to read, and where each continues (after the last posting read). */
  toRead(): Array<{ list: number; after: { key: number; rid: number } | undefined }> {
    return this.open.flatMap((o, list) => (o ? [{ list, after: this.after[list] }] : []));
  }

  /** One chunk of list `list` in (key, rid) descending order; fewer rows than `asked` means the list ended. */
  feed(list: number, rows: readonly Posting[], asked: number): void {
    const l = this.lists[list] as { idf: number; aRef: number };
    this.read += rows.length;
    for (const p of rows) this.put(this.candidate(p.rid), list, p);
    const last = rows[rows.length - 1];
    if (rows.length < asked || !last) {
      this.open[list] = false;
      this.bound[list] = 0;
    } else {
      this.after[list] = { key: last.key, rid: last.rid };
      this.bound[list] = l.idf * last.key * Math.max(1, this.avgdl / l.aRef);
    }
  }

  /** (rid, list) pairs a random access must answer with resolve(); each is handed out once. */
  pending(): Array<[number, number]> {
    const out = this.pend.filter(([rid, i]) => !(this.cand.get(rid)!.known & (1 << i)));
    this.pend = [];
    return out;
  }

  /** List `list`'s posting for `rid`, or null when the row does not hold the term. */
  resolve(rid: number, list: number, p: Pick<Posting, 'tf' | 'dl'> | null): void {
    const c = this.cand.get(rid)!;
    if (p) this.put(c, list, p);
    else c.known |= 1 << list;
  }

  /** True when the best k are certain (or every list was read to its end). */
  done(): boolean {
    // In `and` mode with a rare term every qualifying row is a candidate already (the caller resolved them first).
    if (this.open.every((o) => !o) || (this.and && this.lists.some((l) => 'all' in l))) return true;
    const kth = this.best()[this.k - 1];
    if (!kth) return false;
    return kth.score > this.bound.reduce((a, b) => a + b, 0);
  }

  /** The best k, score descending then rid ascending (FTS5's ORDER BY rank, rowid), scores positive. */
  best(): Array<{ rid: number; score: number }> {
    const out: Array<{ rid: number; score: number }> = [];
    for (const [rid, c] of this.cand) {
      if (c.known !== this.all || (this.and && c.has !== this.all)) continue;
      let s = 0;
      for (const x of c.part) s += x;
      out.push({ rid, score: s });
    }
    return out.sort((a, b) => b.score - a.score || a.rid - b.rid).slice(0, this.k);
  }

  private candidate(rid: number): Cand {
    let c = this.cand.get(rid);
    if (c) return c;
    c = { part: new Float64Array(this.lists.length), known: 0, has: 0 };
    this.cand.set(rid, c);
    this.lists.forEach((l, i) => {
      if ('all' in l) {
        const v = l.all.get(rid);
        c.known |= 1 << i;
        if (v !== undefined) (c.part[i] = v), (c.has |= 1 << i);
      } else this.pend.push([rid, i]);
    });
    return c;
  }

  private put(c: Cand, list: number, p: Pick<Posting, 'tf' | 'dl'>): void {
    const bit = 1 << list;
    if (c.known & bit && c.has & bit) return;
    c.part[list] = this.lists[list]!.idf * bm25Weight(p.tf, p.dl, this.avgdl);
    c.known |= bit;
    c.has |= bit;
  }
}
