// Owns strict JSON text parsing shared by every decoder (Exec, MCP, owner routes, server, the exec CLI): JSON.parse plus refusal of duplicate keys, `__proto__` keys, NUL and lone surrogates.

/** A JSON text that parses but names one object key twice (`{"a":1,"a":2}`, also when spelled `"\u0061"`). */
export class DuplicateKeyError extends Error {
  constructor(readonly key: string) {
    super(`duplicate object key ${JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key)}`);
    this.name = 'DuplicateKeyError';
  }
}

/** A JSON text that parses but holds what no store or object may take: a `__proto__` key, a NUL or a lone surrogate. */
export class RefusedJsonError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedJsonError';
  }
}

/**
 * Parses `text` like JSON.parse (throws SyntaxError when invalid) and throws DuplicateKeyError when any object repeats a
 * key after unescaping. Security invariant: no "last one wins" — a check and a use can never read different values.
 * Security invariant: no `__proto__` key (a copy of the object would take it as its prototype), no U+0000 (PostgreSQL
 * text cannot hold it, file names end at it) and no lone surrogate (stored as U+FFFD, not as sent) at any depth.
 */
export function parseStrictJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  const dup = scan(text);
  if (dup !== undefined) throw new DuplicateKeyError(dup);
  return value;
}

/** Code points no string may hold: U+0000 and surrogates (a `u` pattern matches a surrogate only when it is unpaired). */
const UNSTORABLE = /[\u0000\p{Cs}]/u;

function checkString(s: string, isKey: boolean): void {
  if (isKey && s === '__proto__') throw new RefusedJsonError('object key "__proto__" is not allowed');
  const bad = UNSTORABLE.exec(s);
  if (bad) throw new RefusedJsonError(bad[0] === '\u0000' ? 'a string holds U+0000 (NUL), which cannot be stored' : 'a string holds a lone surrogate (not valid Unicode)');
}

/**
 * Scans a text already known to be valid JSON; returns the first repeated key of any object, or undefined, and throws
 * RefusedJsonError on a refused key or string. O(n); raw text can hold neither NUL nor surrogates, so only strings
 * with escapes (and every key) are decoded.
 */
function scan(text: string): string | undefined {
  // One frame per open container: a key set for objects, null for arrays.
  const stack: Array<Set<string> | null> = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let j = i + 1;
      let escaped = false;
      for (; j < text.length; j++) {
        const d = text.charCodeAt(j);
        if (d === 0x5c /* \ */) {
          escaped = true;
          j++;
        } else if (d === 0x22) break;
      }
      const keys = stack.at(-1);
      const isKey = expectKey && keys !== undefined && keys !== null;
      const s = escaped ? (JSON.parse(text.slice(i, j + 1)) as string) : text.slice(i + 1, j);
      if (escaped || isKey) checkString(s, isKey);
      if (isKey) {
        if (keys!.has(s)) return s;
        keys!.add(s);
        expectKey = false;
      }
      i = j;
    } else if (c === 0x7b /* { */) {
      stack.push(new Set());
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      stack.push(null);
      expectKey = false;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      expectKey = (stack.at(-1) ?? null) !== null;
    }
  }
  return undefined;
}
