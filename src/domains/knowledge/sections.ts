// Owns splitting a Markdown/text document into sections bounded in serialized bytes: one per heading, long ones cut at line (or code point) bounds.
import { clipText } from '../../shared/bounds.js';
import { HEADING_BYTES_MAX, KB_BOUNDS, SECTION_BYTES_MAX } from './contract.js';

export interface Section {
  heading: string;
  body: string;
}

const HEADING = /^(#{1,6})\s+(.*)$/;

/** Serialized bytes of one code point inside a JSON string (what textBytes counts): escapes, quotes and UTF-8 width. */
export function codePointBytes(cp: number): number {
  if (cp === 0x22 || cp === 0x5c) return 2;
  if (cp < 0x20) return cp === 8 || cp === 9 || cp === 10 || cp === 12 || cp === 13 ? 2 : 6;
  if (cp < 0x80) return 1;
  if (cp < 0x800) return 2;
  if (cp >= 0xd800 && cp <= 0xdfff) return 6; // a lone surrogate is written as \uXXXX
  return cp < 0x10000 ? 3 : 4;
}

/** Pushes `body` as sections of at most SECTION_BYTES_MAX serialized bytes, cut after a newline when one is past half. */
function cut(heading: string, body: string, out: Section[]): void {
  let start = 0;
  let bytes = 0;
  let nl = -1;
  let nlBytes = 0;
  for (let i = 0; i < body.length; ) {
    const cp = body.codePointAt(i)!;
    const b = codePointBytes(cp);
    if (bytes + b > SECTION_BYTES_MAX) {
      const atNl = nl > start && nlBytes > SECTION_BYTES_MAX / 2;
      const at = atNl ? nl : i;
      out.push({ heading, body: body.slice(start, at) });
      bytes = atNl ? bytes - nlBytes : 0;
      start = at;
      nl = -1;
      nlBytes = 0;
    }
    bytes += b;
    i += cp > 0xffff ? 2 : 1;
    if (cp === 10) {
      nl = i;
      nlBytes = bytes;
    }
  }
  const rest = body.slice(start);
  if (rest.trim().length > 0 || out.length === 0 || start === 0) out.push({ heading, body: rest });
}

/** Sections in document order; every body is at most SECTION_BYTES_MAX serialized bytes; never empty (one section at least). */
export function splitSections(text: string): Section[] {
  const out: Section[] = [];
  let heading = '';
  let lines: string[] = [];
  const flush = () => {
    const body = lines.join('\n');
    if (body.trim().length > 0 || heading) cut(heading, body, out);
    lines = [];
  };
  for (const line of text.split(/\r?\n/)) {
    const m = HEADING.exec(line);
    if (m) {
      flush();
      heading = clipText(m[2]!.trim(), HEADING_BYTES_MAX);
    } else lines.push(line);
  }
  flush();
  return out.length ? out : [{ heading: '', body: '' }];
}

/** The title: the first heading, else the file name without its extension; within the title's byte bound. */
export function titleOf(path: string, sections: readonly Section[]): string {
  const h = sections.find((s) => s.heading)?.heading;
  const base = path.split('/').pop() ?? path;
  return clipText(h || base.replace(/\.[^.]+$/, '') || base, KB_BOUNDS.title.bytes);
}
