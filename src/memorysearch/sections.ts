// Owns how a Markdown file is split into searchable sections: a new section at each heading, and at most MAX_SECTION_LINES lines.

export const MAX_SECTION_LINES = 40;
/** Sections per file are bounded so a section's rowid can encode its file (rowid = fileId * SECTIONS_PER_FILE + n). */
export const SECTIONS_PER_FILE = 1024;

export interface Section {
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  body: string;
}

const HEADING = /^#{1,6}\s/;

/** Splits `text` into sections; blank-only sections are dropped; at most SECTIONS_PER_FILE (the rest is not indexed). */
export function splitSections(text: string): Section[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const out: Section[] = [];
  let start = 0;
  const flush = (end: number) => {
    if (end <= start) return;
    const body = lines.slice(start, end).join('\n');
    if (body.trim() !== '' && out.length < SECTIONS_PER_FILE) out.push({ startLine: start + 1, endLine: end, body });
    start = end;
  };
  for (let i = 0; i < lines.length; i++) {
    if ((i > start && HEADING.test(lines[i]!)) || i - start >= MAX_SECTION_LINES) flush(i);
  }
  flush(lines.length);
  return out;
}
