// Owns streaming a JSONL transcript read-only, one parsed object at a time, in constant memory, with a byte progress callback.
import { createReadStream } from 'node:fs';

/** A line longer than this is skipped unparsed (a runtime never writes one; a corrupt file might). */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

/**
 * Calls `each` for every line of `path` that parses as a JSON object; other lines are counted as skipped. The file is
 * opened with O_RDONLY only. `progress` receives the bytes read so far. Lines are split from the bytes here (readline
 * would hold a line of any length whole): past MAX_LINE_BYTES a line's bytes are dropped as they come, so a corrupt
 * file without line breaks costs at most that much memory.
 */
export async function eachJsonLine(path: string, each: (o: Record<string, unknown>) => void, progress?: (bytes: number) => void): Promise<{ lines: number; skipped: number }> {
  const stream = createReadStream(path, { flags: 'r', highWaterMark: 256 * 1024 });
  let lines = 0;
  let skipped = 0;
  let bytes = 0;
  let lastReported = 0;
  let parts: Buffer[] = [];
  let held = 0;
  let overlong = false;
  const line = (tail: Buffer | undefined) => {
    if (overlong) {
      lines++;
      skipped++;
    } else {
      const all = tail === undefined ? Buffer.concat(parts, held) : parts.length === 0 ? tail : Buffer.concat([...parts, tail], held + tail.length);
      const end = all.length > 0 && all[all.length - 1] === 13 /* \r */ ? all.length - 1 : all.length;
      if (end > 0 || tail !== undefined) lines++;
      if (end > 0) {
        const o = all[0] === 123 /* { */ ? parse(all.toString('utf8', 0, end)) : undefined;
        if (o) each(o);
        else skipped++;
      }
    }
    parts = [];
    held = 0;
    overlong = false;
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      let from = 0;
      for (let nl = chunk.indexOf(10, from); nl >= 0; nl = chunk.indexOf(10, from)) {
        if (!overlong && held + nl - from > MAX_LINE_BYTES) overlong = true;
        line(overlong ? undefined : chunk.subarray(from, nl));
        from = nl + 1;
      }
      if (from < chunk.length && !overlong) {
        held += chunk.length - from;
        if (held > MAX_LINE_BYTES) (overlong = true), (parts = []), (held = 0);
        else parts.push(chunk.subarray(from));
      }
      if (progress && bytes - lastReported >= 1 << 20) progress((lastReported = bytes));
    }
    if (held > 0 || overlong) line(undefined);
  } finally {
    stream.destroy();
  }
  progress?.(bytes);
  return { lines, skipped };
}

/** A JSON object, or undefined for anything else (an array, a scalar, a parse failure). */
function parse(text: string): Record<string, unknown> | undefined {
  try {
    const o: unknown = JSON.parse(text);
    return typeof o === 'object' && o !== null && !Array.isArray(o) ? (o as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The first line of a file (at most 64 KiB read), for telling transcript formats apart. */
export async function firstLine(path: string): Promise<string> {
  const stream = createReadStream(path, { flags: 'r', encoding: 'utf8', start: 0, end: 64 * 1024 - 1 });
  let text = '';
  for await (const chunk of stream) {
    text += chunk as string;
    const nl = text.indexOf('\n');
    if (nl >= 0) {
      stream.destroy();
      return text.slice(0, nl);
    }
  }
  return text;
}
