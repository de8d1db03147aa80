// Owns strict JSON text parsing shared by every decoder (Exec, MCP, owner routes, server, the exec CLI): JSON.parse plus duplicate-key refusal.

/** A JSON text that parses but names one object key twice (`{"a":1,"a":2}`, also when spelled `"\u0061"`). */
export class DuplicateKeyError extends Error {
  constructor(readonly key: string) {
    super(`duplicate object key ${JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key)}`);
    this.name = 'DuplicateKeyError';
  }
}

/**
 * Parses `text` like JSON.parse (throws SyntaxError when invalid) and throws DuplicateKeyError when any object repeats a
 * key after unescaping. Security invariant: no "last one wins" — a check and a use can never read different values.
 */
export function parseStrictJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  const dup = findDuplicateKey(text);
  if (dup !== undefined) throw new DuplicateKeyError(dup);
  return value;
}

/** Scans a text already known to be valid JSON; returns the first repeated key of any object, or undefined. O(n). */
function findDuplicateKey(text: string): string | undefined {
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
      if (expectKey && keys) {
        const raw = text.slice(i + 1, j);
        const key = escaped ? (JSON.parse(text.slice(i, j + 1)) as string) : raw;
        if (keys.has(key)) return key;
        keys.add(key);
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
