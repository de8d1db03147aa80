// Owns the `profile` domain contract: the public Profile DTO (TypeBox), every bound in characters and serialized bytes, who may edit, and its server calls (PROFILE).
import { Type, type Static } from '@sinclair/typebox';
import { Strict, Timestamp } from '../../catalog/schemas.js';
import { endpoints } from '../../shared/endpoint.js';
import { AppError } from '../../shared/errors.js';

export const DISPLAY_NAME_MAX = 100;
export const BIO_MAX = 1000;
export const STATUS_MAX = 100;
/** Serialized (JSON, UTF-8) byte bounds of each stored field: a profile row is at most ~5 KiB. */
export const BYTES = { displayName: 400, bio: 4000, status: 400 } as const;

/** Who may do what: every member reads any member's public profile; a member edits only their own (anyone else: denied). */
export const Profile = Strict({
  memberId: Type.String(),
  name: Type.String(),
  kind: Type.Union([Type.Literal('human'), Type.Literal('agent')]),
  displayName: Type.String({ maxLength: DISPLAY_NAME_MAX }),
  bio: Type.String({ maxLength: BIO_MAX }),
  status: Type.String({ maxLength: STATUS_MAX }),
  revision: Type.Integer({ minimum: 0 }),
  updatedAt: Type.Union([Timestamp, Type.Null()]),
});
export type ProfileDto = Static<typeof Profile>;

export const DisplayName = Type.String({ minLength: 1, maxLength: DISPLAY_NAME_MAX });
export const Bio = Type.String({ maxLength: BIO_MAX });
export const Status = Type.String({ maxLength: STATUS_MAX, description: 'A short status line, e.g. "on release duty".' });
const UpdateBody = Strict({ displayName: Type.Optional(DisplayName), bio: Type.Optional(Bio), status: Type.Optional(Status) });
export type ProfileUpdate = Static<typeof UpdateBody>;

/**
 * The profile server calls: each one is a route on the server and a method of the daemon's `api.profiles`. The caller's
 * own profile has its own path (`mine`, `updateMine`); `update` naming another member is denied.
 */
export const PROFILE = endpoints({
  mine: { method: 'GET', path: '/v1/profile', output: Profile },
  updateMine: { method: 'PATCH', path: '/v1/profile', body: UpdateBody, output: Profile },
  get: { method: 'GET', path: '/v1/profiles/{memberId}', output: Profile },
  update: { method: 'PATCH', path: '/v1/profiles/{memberId}', body: UpdateBody, output: Profile },
});

/** A stored text field within its character and serialized-byte bounds. */
export function boundedField(v: unknown, field: keyof typeof BYTES, min: number, max: number): string {
  if (typeof v !== 'string' || v.length < min || v.length > max) throw new AppError('validation_failed', `${field} must be a string of ${min} to ${max} characters`);
  if (min > 0 && v.trim().length === 0) throw new AppError('validation_failed', `${field} must not be blank`);
  if (Buffer.byteLength(JSON.stringify(v)) > BYTES[field]) throw new AppError('validation_failed', `${field} must serialize to at most ${BYTES[field]} bytes`);
  return v;
}
