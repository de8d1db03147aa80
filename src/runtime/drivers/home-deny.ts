// Owns what of the AgentTeam home each runtime's own permission config denies: all of it, but this agent's Memory clone and exec token folder.
import { readdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { homePaths } from '../../home/home.js';
import { AppError } from '../../shared/errors.js';

/** Entries listed from one home folder at most (the home holds a fixed layout; more is not a home). */
const MAX_ENTRIES = 1000;

/** The home as given and as its real path (a runtime may see either spelling); no trailing slash. */
export function homeSpellings(home: string): string[] {
  const given = home.replace(/\/+$/, '') || '/';
  let real = given;
  try {
    real = realpathSync(given);
  } catch {
    /* a home that does not exist yet is denied as spelled */
  }
  return [...new Set([given, real])];
}

/** True when `p` is strictly inside `dir`. */
function inside(p: string, dir: string): boolean {
  const r = relative(dir, p);
  return r !== '' && !r.startsWith('..') && !r.startsWith(sep);
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir).slice(0, MAX_ENTRIES);
  } catch {
    return [];
  }
}

/**
 * The absolute paths a runtime whose deny rules beat its allow rules (Claude Code) must deny so that nothing of the
 * home is readable but `keep` (this agent's Memory clone, its exec token folder): every entry of each folder on the way
 * from the home to a kept path, present now or in the home's layout, except the one leading to that kept path. With
 * nothing to keep inside the home, the home itself.
 */
export function homeDenyPaths(home: string, keep: readonly (string | undefined)[]): string[] {
  const out: string[] = [];
  for (const h of homeSpellings(home)) {
    const kept = keep.filter((k): k is string => !!k).map((k) => k.replace(/\/+$/, '')).filter((k) => inside(k, h));
    if (kept.length === 0) {
      out.push(h);
      continue;
    }
    const layout = Object.values(homePaths(h)).filter((p) => inside(p, h));
    // Walk down: at each folder on a kept path, deny every entry that neither is nor leads to a kept path.
    const walk = (dir: string): void => {
      const names = new Set([...entries(dir), ...layout.filter((p) => dirname(p) === dir).map((p) => basename(p))]);
      for (const n of names) {
        const p = join(dir, n);
        if (kept.some((k) => k === p)) continue;
        if (kept.some((k) => inside(k, p))) walk(p);
        else out.push(p);
      }
    };
    walk(h);
  }
  return [...new Set(out)];
}

/** Glob characters a rule would read as a pattern, and control characters: a path holding one cannot be denied exactly. */
const UNRULY = /[*?[\]{}\\\u0000-\u001f\u007f]/;

/** Throws when `p` cannot be written into a runtime's path rule as it is (fail closed: the runtime is not started). */
export function assertRulePath(p: string): void {
  if (UNRULY.test(p)) throw new AppError('invalid_input', 'the AgentTeam home path has a character runtime permission rules cannot carry (*?[]{}\\ or a control character); use a plainer home path');
}
