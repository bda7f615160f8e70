// `db8 debate abort|pause|resume|extend|replace` (admin): operating a running debate. Each is one
// entry in the room's log (POST /v1/debate/rooms/:id/operate); the rules refuse what does not apply.
import { writeStdout } from '@db8/cli/kit';
import { Remote, resolveRoom } from '@db8/cli/kit-run';
import { operateDebate } from '../client/index.ts';
import type { OperateBody } from '../rules/operate-wire.ts';

const out = (line: string) => writeStdout(`${line}\n`);

const DONE: Record<OperateBody['op'], string> = {
  abort: 'aborted (closed, not rated)',
  pause: 'paused: the countdown is frozen until db8 debate resume',
  resume: 'resumed: the window runs again with the time it had left',
  extend: 'extended',
  replace: 'seat replaced',
};

export async function operate(
  room: string | undefined,
  body: OperateBody,
  o: { url?: string; json?: boolean },
): Promise<void> {
  const remote = new Remote(o.url);
  const roomId = resolveRoom(remote, room);
  const client = await remote.client();
  const r = await remote.call(() => operateDebate(client, roomId, body), { roomId });
  if (o.json) return out(JSON.stringify(r));
  const what =
    body.op === 'extend'
      ? `${DONE.extend} by ${body.seconds} s`
      : body.op === 'replace'
        ? `${body.seat} now held by ${body.principal} (join seq ${r.join_seq})`
        : DONE[body.op];
  await out(`${roomId}: ${what}; seq ${r.seq}`);
}
