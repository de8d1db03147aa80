// Owns streaming a JSONL transcript read-only, one parsed object at a time, in constant memory, with a byte progress callback.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** A line longer than this is skipped unparsed (a runtime never writes one; a corrupt file might). */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

/**
 * Calls `each` for every line of `path` that parses as a JSON object; other lines are counted as skipped. The file is
 * opened with O_RDONLY only. `progress` receives the bytes read so far.
 */
export async function eachJsonLine(path: string, each: (o: Record<string, unknown>) => void, progress?: (bytes: number) => void): Promise<{ lines: number; skipped: number }> {
  const stream = createReadStream(path, { flags: 'r', encoding: 'utf8', highWaterMark: 256 * 1024 });
  const rl = createInterface({ input: stream, crlfDelay: Infinity });
  let lines = 0;
  let skipped = 0;
  let lastReported = 0;
  try {
    for await (const line of rl) {
      lines++;
      if (progress && stream.bytesRead - lastReported >= 1 << 20) progress((lastReported = stream.bytesRead));
      if (line.length === 0 || line.length > MAX_LINE_BYTES || line.charCodeAt(0) !== 123 /* { */) {
        if (line.length > 0) skipped++;
        continue;
      }
      let o: unknown;
      try {
        o = JSON.parse(line);
      } catch {
        skipped++;
        continue;
      }
      if (typeof o === 'object' && o !== null && !Array.isArray(o)) each(o as Record<string, unknown>);
      else skipped++;
    }
  } finally {
    rl.close();
    stream.destroy();
  }
  progress?.(stream.bytesRead);
  return { lines, skipped };
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
