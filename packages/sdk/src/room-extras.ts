import { type IssueCertBody, IssueCertResponseSchema } from '@db8/server/schemas';
import type { Db8Client } from './rest.ts';

const room = (id: string) => `/v1/rooms/${encodeURIComponent(id)}`;

/** Certify an SSH key for the caller's seat: principal `<seat>@<room>`, signed by the room CA. */
export function issueRoomCert(client: Db8Client, roomId: string, body: IssueCertBody) {
  return client.request(IssueCertResponseSchema, 'POST', `${room(roomId)}/certs`, body);
}

/** The room's journal bundle (JSONL) exactly as the server sent it, as this client may see it. */
export async function exportText(client: Db8Client, roomId: string): Promise<string> {
  return (await client.raw('GET', `${room(roomId)}/export`)).text();
}
