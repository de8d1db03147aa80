// Owns the home wall: no agent's workdir or allowed path equals, contains or sits inside the AgentTeam home (its credentials).
import { realpathSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { AppError } from '../shared/errors.js';

/**
 * The real path of `p` with symlinks resolved: the nearest existing ancestor is resolved and the missing rest appended,
 * so a path that does not exist yet but whose parent chain reaches the home through a link is still caught.
 */
export function realPathOf(p: string): string {
  let cur = resolve(p);
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(cur), ...rest.reverse());
    } catch {
      const up = dirname(cur);
      if (up === cur) return resolve(p);
      rest.push(basename(cur));
      cur = up;
    }
  }
}

/** How `path` relates to `home` once both are real paths: the same folder, an ancestor of it, inside it, or apart. */
export function homeOverlap(path: string, home: string): 'equals' | 'contains' | 'inside' | undefined {
  const p = realPathOf(path);
  const h = realPathOf(home);
  if (p === h) return 'equals';
  const under = (a: string, b: string) => {
    const r = relative(b, a);
    return r !== '' && r !== '..' && !r.startsWith(`..${sep}`) && !r.startsWith(sep);
  };
  if (under(h, p)) return 'contains';
  if (under(p, h)) return 'inside';
  return undefined;
}

const SAID = { equals: 'is', contains: 'contains', inside: 'is inside' } as const;

/** Throws invalid_input naming `field` when `path` equals, contains or sits inside `home`; the message holds no path. */
export function assertOutsideHome(field: string, path: string, home: string, remedy: string): void {
  const o = homeOverlap(path, home);
  // Security invariant: an agent's runtime may read inside its workdir and allowed paths, so none of them reaches the home.
  if (o) throw new AppError('invalid_input', `${field} ${SAID[o]} the AgentTeam home, which holds its credentials; ${remedy}`);
}

/** The workdir and every allowed path of a profile (or of an add/update input) checked against the home. */
export function assertProfileOutsideHome(p: { workdir?: string | undefined; allowedPaths?: readonly string[] | undefined }, home: string): void {
  if (p.workdir !== undefined) assertOutsideHome('workdir', p.workdir, home, 'pass --workdir a project folder outside it');
  (p.allowedPaths ?? []).forEach((a, i) => assertOutsideHome(`allowedPaths[${i}]`, a, home, 'pass --allow-path folders outside it'));
}
