import { z } from 'zod';
import type { Viewer } from '../protocol/contract.ts';

/**
 * Who may read an entry's payload: everyone, one seat, a set of seats (an audience: a
 * deliberation's hub and one spoke, a tree node's parent and children), or admins only. Every
 * non-public kind is sealed the same way: the public log carries the commitment, the payload goes
 * only to its audience and admins until a later entry reveals it.
 */
export const VisibilitySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('public') }),
  z.object({ kind: z.literal('seat'), seat: z.string().min(1) }),
  // Sorted and distinct, so one audience has one canonical form (and one leaf hash).
  z.object({
    kind: z.literal('seats'),
    seats: z
      .array(z.string().min(1))
      .min(1)
      .refine((s) => s.every((x, i) => i === 0 || s[i - 1]! < x), 'seats must be sorted and distinct'),
  }),
  z.object({ kind: z.literal('admin') }),
]);
export type Visibility = z.infer<typeof VisibilitySchema>;

export const PUBLIC: Visibility = Object.freeze({ kind: 'public' });

/** An audience of seats in its canonical form (sorted, distinct); one seat stays `seat`. */
export function audience(seats: Iterable<string>): Visibility {
  const list = [...new Set(seats)].sort();
  if (list.length === 0) return { kind: 'admin' };
  return list.length === 1 ? { kind: 'seat', seat: list[0]! } : { kind: 'seats', seats: list };
}

export function canSee(visibility: Visibility, viewer: Viewer): boolean {
  if (visibility.kind === 'public' || viewer.kind === 'admin') return true;
  if (viewer.kind !== 'seat') return false;
  if (visibility.kind === 'seat') return viewer.seat === visibility.seat;
  return visibility.kind === 'seats' && visibility.seats.includes(viewer.seat);
}
