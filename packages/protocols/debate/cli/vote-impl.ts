// `db8 vote continue yes|no`, `db8 vote final --approve … [--rank …]`, and
// `db8 auth issue-cert --principal <seat>@<room> --ttl 1h [--key …]` (a room certificate).
import { writeFileSync } from 'node:fs';
import { CliError, clock, EXIT_IO_ERROR, EXIT_REJECTED, EXIT_USAGE, writeStdout } from '@db8/cli/kit';
import { absPath, Remote, sshPublicLine } from '@db8/cli/kit-run';
import { issueRoomCert } from '@db8/sdk';
import { actAs, legalOf, loadSeat, notOpen, phaseUntil, requireSeat } from './seat.ts';

const out = (line: string) => writeStdout(`${line}\n`);

export async function voteContinue(choice: string, o: { url?: string; room?: string }) {
  const c =
    choice === 'yes' || choice === 'continue'
      ? 'continue'
      : choice === 'no' || choice === 'end'
        ? 'end'
        : null;
  if (!c) throw new CliError(EXIT_USAGE, `vote continue takes yes or no (got ${choice})`);
  const s = await loadSeat(o.url, o.room);
  const seat = requireSeat(s, 'debater');
  if (!legalOf(s, 'vote_continue')) throw notOpen('the continue vote', s.view);
  const cv = s.view.rounds[s.view.round - 1]?.continue_vote;
  const ack = await actAs(s, 'the continue vote', { type: 'vote_continue', choice: c });
  const closes = cv ? ` (closes ${clock(cv.closes_at)}, or when every debater has voted)` : '';
  await out(
    `${seat} voted ${c === 'continue' ? 'yes (continue)' : 'no (end)'} after round ${s.view.round}, seq ${ack.seq}; sealed until the tally${closes}`,
  );
}

export async function voteFinal(o: { url?: string; room?: string; approve: string[]; rank?: string[] }) {
  const s = await loadSeat(o.url, o.room);
  const seat = requireSeat(s);
  const legal = legalOf(s, 'final_vote');
  if (!legal) {
    if (s.view.phase === 'final_vote') {
      throw new CliError(
        EXIT_REJECTED,
        `a ${s.view.you.role} does not vote in this room (final voters: ${s.view.config.final_voters.join(', ')})`,
      );
    }
    throw notOpen('the final vote', s.view);
  }
  for (const d of [...o.approve, ...(o.rank ?? [])]) {
    if (!legal.candidates.includes(d)) {
      throw new CliError(
        EXIT_REJECTED,
        `${d} is not a candidate for you (candidates: ${legal.candidates.join(', ')})`,
      );
    }
  }
  const ack = await actAs(s, 'the final vote', {
    type: 'final_vote',
    approval: o.approve,
    ...(o.rank ? { ranking: o.rank } : {}),
  });
  await out(
    `${seat} approved ${o.approve.join(', ')}${o.rank ? `, ranked ${o.rank.join(' > ')}` : ''} (seq ${ack.seq}); sealed until the vote closes, the room is ${phaseUntil(s.view)}`,
  );
}

/** `1h`, `30m`, `90s` or plain seconds. */

export async function issueCert(o: {
  url?: string;
  principal: string;
  ttl: number;
  key: string;
  output?: string;
  json?: boolean;
}) {
  const m = /^([a-z][a-z0-9_]*)@(room_[A-Za-z0-9_-]+)$/.exec(o.principal);
  if (!m)
    throw new CliError(
      EXIT_USAGE,
      `--principal ${o.principal}: expected <seat>@<room id>, e.g. anon_3@room_ab12`,
    );
  const [, seat, roomId] = m as unknown as [string, string, string];
  const remote = new Remote(o.url);
  const held = remote.seatIn(roomId)?.seat;
  if (held && held !== seat) {
    throw new CliError(
      EXIT_REJECTED,
      `you hold ${held} in ${roomId}, not ${seat}: the room CA certifies only your own seat (--principal ${held}@${roomId})`,
    );
  }
  const publicKey = sshPublicLine(o.key);
  const client = await remote.roomClient(roomId, { required: true });
  const r = await remote.call(
    () => issueRoomCert(client, roomId, { public_key: publicKey, ttl_sec: o.ttl }),
    { roomId },
  );
  if (r.principal !== o.principal) {
    throw new CliError(
      EXIT_REJECTED,
      `the server certified ${r.principal}, not ${o.principal}: you hold another seat`,
    );
  }
  const file = o.output ?? `${absPath(o.key).replace(/\.pub$/, '')}-cert.pub`;
  try {
    writeFileSync(file, `${r.certificate}\n`, { mode: 0o644 });
  } catch (e) {
    throw new CliError(EXIT_IO_ERROR, `cannot write ${file} (${(e as NodeJS.ErrnoException).code ?? e})`);
  }
  if (o.json) return out(JSON.stringify({ ...r, file }));
  await out(`certificate for ${r.principal} (valid until ${r.valid_before}) written to ${file}`);
  await out(
    `sign with it: ssh-keygen -Y sign -n db8 -f ${file} submission.json   (or db8 submit --sign <key> --cert ${file})`,
  );
}
