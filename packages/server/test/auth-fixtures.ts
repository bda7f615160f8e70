import { randomBytes } from 'node:crypto';
import type { Store } from '../src/store/index.ts';

/** A bare room row with seats, straight into the store (auth tests need rooms, not a runtime). */
export async function seedRoom(store: Store, seats: string[] = ['anon_1', 'anon_2']): Promise<string> {
  const id = `room_${randomBytes(5).toString('hex')}`;
  await store.rooms.create(
    {
      id,
      protocol: 'test',
      protocolVersion: 1,
      configJson: '{}',
      title: null,
      createdBy: null,
      createdAt: 1,
      seed: '00'.repeat(32),
      deadlineAt: null,
    },
    seats.map((seat) => ({ seat, role: 'player' })),
  );
  return id;
}
