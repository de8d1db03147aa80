// Owns the generated text the memory_search and kb_search benchmarks search: a deterministic PRNG, a Zipf-like vocabulary and ~2 KB Markdown notes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A small deterministic PRNG (mulberry32) so every run indexes the same corpus. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 8,000 pseudo-words; picked with a Zipf-like skew so a few are common and most are rare (like real notes). */
export function vocabulary(r: () => number): string[] {
  const syl = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'qui', 'dor', 'fen', 'gal', 'hux', 'jor', 'bel', 'cin', 'wex', 'yam'];
  const words = new Set<string>();
  while (words.size < 8000) words.add(Array.from({ length: 2 + Math.floor(r() * 3) }, () => syl[Math.floor(r() * syl.length)]).join(''));
  return [...words];
}

/** A skewed pick: low indexes (common words) far more often than high ones. */
export const zipfWord = (r: () => number, vocab: readonly string[]) => vocab[Math.floor(vocab.length * r() ** 3)]!;

/** Dated bullet lines with links until about `bytes` long (the body of one note or section), after `head`; one line in ten a subheading (or, without, a bullet of two words). */
export function noteLines(r: () => number, vocab: readonly string[], i: number, bytes: number, head: string[], subheadings = true): string[] {
  const word = () => zipfWord(r, vocab);
  const lines = [...head];
  let size = 0;
  while (size < bytes) {
    const line = r() < 0.1 ? `${subheadings ? '##' : '-'} ${word()} ${word()}` : `- 2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}: ${Array.from({ length: 6 + Math.floor(r() * 10) }, word).join(' ')} [see](../topic${(i + 1) % 50}/n${i + 1}.md)`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines;
}

/**
 * The notes corpus of the memory and search-path benchmarks (seed 42): `files` notes of ~`fileBytes` in 50 folders,
 * each headed by two Zipf words; `lastLine`, when given, is appended to the last file written.
 */
export function writeNotes(dir: string, o: { files: number; fileBytes: number; lastLine?: string; mode?: number }): { bytes: number; vocab: string[] } {
  const r = rng(42);
  const vocab = vocabulary(r);
  let bytes = 0;
  for (let i = 0; i < o.files; i++) {
    const sub = join(dir, `topic${i % 50}`);
    if (i < 50) mkdirSync(sub, o.mode === undefined ? { recursive: true } : { recursive: true, mode: o.mode });
    const tail = i === o.files - 1 && o.lastLine !== undefined ? [o.lastLine] : [];
    const text = [...noteLines(r, vocab, i, o.fileBytes, [`# Note ${i}: ${zipfWord(r, vocab)} ${zipfWord(r, vocab)}`, '']), ...tail].join('\n') + '\n';
    bytes += Buffer.byteLength(text);
    writeFileSync(join(sub, `n${i}.md`), text);
  }
  return { bytes, vocab };
}
