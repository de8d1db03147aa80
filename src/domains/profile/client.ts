// Owns the daemon's `profile` client: `api.profiles.*` over the server's profile routes.
import { seg, type CallOptions, type Send } from '../../server-client/send.js';
import type { ProfileDto, ProfileUpdate } from './contract.js';

export interface ProfileApi {
  /** Any member's public profile; without memberId, the caller's. */
  get(memberId?: string, o?: CallOptions): Promise<ProfileDto>;
  /** The caller's own profile; another memberId is denied. */
  update(input: ProfileUpdate & { memberId?: string }, o?: CallOptions): Promise<ProfileDto>;
}

export function profileClient(send: Send): ProfileApi {
  const at = (id: string | undefined) => (id === undefined ? '/v1/profile' : `/v1/profiles/${seg(id, 'memberId')}`);
  return {
    get: (id, o) => send({ method: 'GET', path: at(id), opts: o }),
    update: ({ memberId, ...rest }, o) => send({ method: 'PATCH', path: at(memberId), body: rest, opts: o }),
  };
}
