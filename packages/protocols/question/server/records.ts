import type { ModuleRuntime as Runtime } from '@db8/server/kit';
import { type QuestionView, type ResponderRecord, type RoomFacts, responderRecord } from '../rules/index.ts';

/**
 * The record this node attests for a responder when it relays the responder's join (`gateway/record`,
 * docs/swarm.md "Reputation"): `responderRecord` over the closed question rooms it holds, the newest
 * `MAX_RECORD_ROOMS` of them (rooms past the history retention are purged, so they never count).
 */
export const MAX_RECORD_ROOMS = 2000;

export async function recordOf(runtime: Runtime, participant: string): Promise<ResponderRecord> {
  const rooms: RoomFacts[] = [];
  let cursor: string | undefined;
  while (rooms.length < MAX_RECORD_ROOMS) {
    const page = await runtime.store.rooms.list({
      protocol: 'question',
      status: 'closed',
      limit: 500,
      ...(cursor ? { cursor } : {}),
    });
    for (const r of page.rooms.slice(0, MAX_RECORD_ROOMS - rooms.length)) {
      const st = await runtime.stateFor(r.id, { kind: 'observer' }).catch(() => null);
      if (st) rooms.push(st.view as QuestionView);
    }
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  return responderRecord(rooms, participant);
}
