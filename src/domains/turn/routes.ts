// Owns the `turn` server route: GET /v1/turns?after&waitMs (agents only; a long poll).
import { AppError } from '../../shared/errors.js';
import type { DomainRoute } from '../../server/http/route.js';
import type { Turns } from './service.js';

function intOf(v: string | undefined, name: string): number {
  if (v === undefined) return 0;
  if (!/^[0-9]{1,15}$/.test(v)) throw new AppError('validation_failed', `${name} must be a non-negative integer`);
  return Number(v);
}

export const ROUTES: readonly DomainRoute<Turns>[] = [
  { method: 'GET', path: '/v1/turns', query: ['after', 'waitMs'], handle: (c, s) => s.read(c.actor, { after: intOf(c.query.after, 'after'), waitMs: intOf(c.query.waitMs, 'waitMs') }) },
];
