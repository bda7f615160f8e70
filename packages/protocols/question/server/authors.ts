import type { ModuleRuntime } from '@db8/server/kit';
import { linkRoom } from '@db8/server/kit';
import { type NodeIdentity, participantOf, principalKey } from './node-sign.ts';

/**
 * Who wrote what, for profiles (issue 28, "One identity"). A question room's participants are keys,
 * not principals: this node signs a logged-in principal's drafts with a key derived from the node's
 * seed and the principal (`principalKey`), which nobody else can link back. When it publishes such a
 * draft it records the link (room_links: the room, the principal, the participant key), and the
 * profile counts the room under the platform's rule — closed rooms only, unless an admin asks — so a
 * running room's authors stay as anonymous as its keys.
 *
 * Only this node knows its principals: an answer signed by a client's own key, or relayed from
 * another node, has no principal here and appears on no profile (it stays a key in its room).
 */
export async function linkAuthor(
  runtime: ModuleRuntime,
  node: NodeIdentity,
  a: { roomId: string; principal: string; role: 'asker' | 'participant' },
): Promise<void> {
  await linkRoom(runtime.store, {
    roomId: a.roomId,
    principal: a.principal,
    label: participantOf(principalKey(node, a.principal).publicKey),
    role: a.role,
    now: runtime.now(),
  });
}
