// Owns finding a runtime's own binary on the runtime's PATH and recognising a user command as that binary.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { basename, delimiter, isAbsolute, join } from 'node:path';

/** True when argv[0] names one of `binaries`: the bare name or any path ending in `/<name>`. */
export function isOwnBinary(argv0: string, binaries: readonly string[]): boolean {
  return binaries.includes(basename(argv0));
}

async function isExecutableFile(p: string): Promise<boolean> {
  try {
    if (!(await stat(p)).isFile()) return false;
    await access(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Looks `name` up on `pathVar` (the runtime's PATH, not the daemon's); returns the first executable file, or null. */
export async function findOnPath(name: string, pathVar: string | undefined): Promise<string | null> {
  for (const dir of (pathVar ?? '').split(delimiter)) {
    // An empty or relative PATH entry would resolve against the daemon's cwd; skip it.
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return null;
}
