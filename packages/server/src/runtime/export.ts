import { roomOrigin, type Viewer } from '@db8/core';
import type { Runtime } from './runtime.ts';

const PAGE = 1000;

/**
 * The journal bundle as JSONL records: one `room` header (with the keys that verify its
 * checkpoints), every `entry` as the viewer may see it, then every signed `checkpoint`.
 */
export async function* exportRoom(runtime: Runtime, roomId: string, viewer: Viewer): AsyncGenerator<object> {
  const room = await runtime.getRoom(roomId);
  yield {
    type: 'room',
    room,
    origin: roomOrigin(runtime.origin, roomId),
    keys: { note: runtime.serverKey.noteVerifierKey, ssh: runtime.serverKey.sshPublicLine },
  };
  for (let from = 0; ; ) {
    const page = await runtime.entries(roomId, viewer, from, PAGE);
    for (const entry of page) yield { type: 'entry', entry };
    if (page.length < PAGE) break;
    from = (page[page.length - 1]?.seq ?? from) + 1;
  }
  for (const cp of await runtime.checkpoints(roomId)) yield { type: 'checkpoint', ...cp };
}
