// Owns splitting a Markdown/text document into bounded sections: one per heading, long ones cut at line (or character) bounds.
import { SECTION_MAX_CHARS, TITLE_MAX } from './contract.js';

export interface Section {
  heading: string;
  body: string;
}

const HEADING = /^(#{1,6})\s+(.*)$/;

function cut(heading: string, body: string, out: Section[]): void {
  let rest = body;
  while (rest.length > SECTION_MAX_CHARS) {
    const nl = rest.lastIndexOf('\n', SECTION_MAX_CHARS);
    const at = nl > SECTION_MAX_CHARS / 2 ? nl + 1 : SECTION_MAX_CHARS;
    out.push({ heading, body: rest.slice(0, at) });
    rest = rest.slice(at);
  }
  if (rest.trim().length > 0 || out.length === 0) out.push({ heading, body: rest });
}

/** Sections in document order; every body is at most SECTION_MAX_CHARS characters; never empty (one section at least). */
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
      heading = m[2]!.trim().slice(0, TITLE_MAX);
    } else lines.push(line);
  }
  flush();
  return out.length ? out : [{ heading: '', body: '' }];
}

/** The title: the first heading, else the file name without its extension. */
export function titleOf(path: string, sections: readonly Section[]): string {
  const h = sections.find((s) => s.heading)?.heading;
  const base = path.split('/').pop() ?? path;
  return (h || base.replace(/\.[^.]+$/, '') || base).slice(0, TITLE_MAX);
}
