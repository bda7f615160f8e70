import { type IssueCertBody, IssueCertResponseSchema } from '@db8/server/schemas';
import type { z } from 'zod';
import { Db8Error } from './errors.ts';
import type { Db8Client } from './rest.ts';

/**
 * A request whose answer is checked against `schema`: what a protocol's client helpers build on
 * (debate's ratings, for one) and the room helpers below use.
 */
export async function requestChecked<S extends z.ZodType>(
  client: Db8Client,
  schema: S,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<z.output<S>> {
  const res = await client.raw(method, path, body);
  const r = schema.safeParse(await res.json());
  if (!r.success)
    throw new Db8Error(res.status, 'BAD_RESPONSE', `unexpected response from ${path}`, r.error.issues);
  return r.data;
}

const room = (id: string) => `/v1/rooms/${encodeURIComponent(id)}`;

/** Certify an SSH key for the caller's seat: principal `<seat>@<room>`, signed by the room CA. */
export function issueRoomCert(client: Db8Client, roomId: string, body: IssueCertBody) {
  return requestChecked(client, IssueCertResponseSchema, 'POST', `${room(roomId)}/certs`, body);
}

/** The room's journal bundle (JSONL) exactly as the server sent it, as this client may see it. */
export async function exportText(client: Db8Client, roomId: string): Promise<string> {
  return (await client.raw('GET', `${room(roomId)}/export`)).text();
}
