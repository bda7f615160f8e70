import { z } from 'zod';
import type { Viewer } from '../protocol/contract.ts';

/** Who may read an entry's payload: everyone, one seat, or admins only. */
export const VisibilitySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('public') }),
  z.object({ kind: z.literal('seat'), seat: z.string().min(1) }),
  z.object({ kind: z.literal('admin') }),
]);
export type Visibility = z.infer<typeof VisibilitySchema>;

export const PUBLIC: Visibility = Object.freeze({ kind: 'public' });

export function canSee(visibility: Visibility, viewer: Viewer): boolean {
  if (visibility.kind === 'public' || viewer.kind === 'admin') return true;
  return visibility.kind === 'seat' && viewer.kind === 'seat' && viewer.seat === visibility.seat;
}
