// Owns reading a runtime's own session id out of its JSON-lines stdout, for the next turn's resume flag.

/** A session id as the runtimes print them (UUIDs, `ses_…`, thread ids): plain, bounded, never flag-like. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

/**
 * The last well-formed top-level value of `field` on any JSON-object line of `stdout`. Lines that are not JSON are
 * skipped; a value that is not a plain bounded id is ignored, so a resume flag never carries arbitrary text.
 */
export function lastJsonField(stdout: string, field: string): string | undefined {
  const lines = stdout.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trim();
    if (!line.startsWith('{')) continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    const id = (v as Record<string, unknown>)[field];
    if (typeof id === 'string' && SESSION_ID.test(id)) return id;
  }
  return undefined;
}
