// Owns the typed constructor of ActionDescriptor values so each descriptor's example is checked against its input type.
import type { TSchema } from '@sinclair/typebox';
import type { ActionDescriptor } from '../types.js';

export function defineAction<I extends TSchema, O extends TSchema>(d: ActionDescriptor<I, O>): ActionDescriptor<I, O> {
  return d;
}
