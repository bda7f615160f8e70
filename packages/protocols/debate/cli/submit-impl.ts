// `db8 draft open|save`, `db8 submit`, `db8 resubmit`: a debater's submission from draft.json to
// the room — validated against the open round, optionally signed, sent with an idempotency key.

import { CliError, clock, EXIT_REJECTED, writeStdout } from '@db8/cli/kit';
import { sha256Hex } from '@db8/core';
import { type CanonicalPayload, submissionBytes, submissionSha256 } from '../rules/index.ts';
import {
  carryDraft,
  draftExists,
  draftProblems,
  draftTemplate,
  readDraft,
  readValidDraft,
  staleField,
  writeDraft,
} from './draft.ts';
import { actAs, legalOf, loadSeat, notOpen, phaseUntil, requireSeat, type SeatState } from './seat.ts';
import { type Signed, signatureFromFile, signWithKey } from './sign.ts';

const DRAFT = 'draft.json';
const out = (line: string) => writeStdout(`${line}\n`);

export async function openDraft(o: { url?: string; room?: string; output?: string }) {
  const file = o.output ?? DRAFT;
  const s = await loadSeat(o.url, o.room);
  requireSeat(s, 'debater');
  const legal = legalOf(s, 'submit');
  if (!legal) throw notOpen('drafting', s.view);
  let draft: Record<string, unknown>;
  let verb: string;
  let dropped = false;
  if (draftExists(file)) {
    // Keep the author's text; bring the round's fields up to date (a new round, a new deadline).
    const { raw } = await readDraft(file);
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      throw new CliError(
        EXIT_REJECTED,
        `${file} is not a JSON object: move it away and run db8 draft open again`,
      );
    }
    ({ draft, dropped } = carryDraft(raw as Record<string, unknown>, legal, s.roomId));
    verb = 'updated';
  } else {
    draft = draftTemplate(legal, s.roomId);
    verb = 'wrote';
  }
  writeDraft(file, draft);
  const problems = draftProblems(draft, legal);
  const until = `submit is open until ${clock(legal.deadline_unix * 1000)}`;
  const where = `${s.seat} in ${s.roomId}, round ${legal.round_id} (${legal.phase})`;
  await out(`${verb} ${file} for ${where}; ${until}`);
  if (dropped) await out(`dropped the concessions of the previous round from ${file}: each counts once`);
  await out(
    `limits: content <= ${legal.content_max} chars, 1-${legal.claims_max} claims, >= ${legal.citations_min} citations; signatures ${legal.signatures}`,
  );
  if (problems.length === 0) {
    await out(
      `${file} is valid: db8 submit ${file}  (or sign: db8 canon ${file} | ssh-keygen -Y sign -n db8 -f <key>)`,
    );
  } else {
    await out(`to fill in before db8 submit:`);
    for (const p of problems) await out(`  ${p}`);
  }
}

export async function saveDraft(file: string | undefined, o: { url?: string; room?: string }) {
  const path = file ?? DRAFT;
  const { raw } = await readDraft(path);
  const d = raw as Partial<CanonicalPayload>;
  const s = await loadSeat(o.url, o.room, {
    fallbackRoom: typeof d.room_id === 'string' ? d.room_id : undefined,
  });
  requireSeat(s, 'debater');
  if (!legalOf(s, 'draft')) throw notOpen('drafting', s.view);
  const ack = await actAs(s, 'drafting', {
    type: 'draft',
    content: typeof d.content === 'string' ? d.content : '',
    claims: Array.isArray(d.claims) ? d.claims : [],
    citations: Array.isArray(d.citations) ? d.citations : [],
  });
  await out(`saved ${path} as your private draft (seq ${ack.seq}); only you can read it`);
}

export interface SubmitOpts {
  url?: string;
  room?: string;
  sign?: string;
  cert?: string;
  sig?: string;
  nonce?: string;
  json?: boolean;
}

/** A plain key must be bound to the seat before it signs (register_key, trust on first use). */
async function ensureKey(s: SeatState, seat: string, signed: Signed): Promise<string | null> {
  if (signed.principals !== null) return null;
  const mine = s.view.debaters.find((d) => d.seat === seat)?.keys ?? [];
  if (mine.includes(signed.keyHex)) return null;
  if (!legalOf(s, 'register_key')) {
    throw new CliError(
      EXIT_REJECTED,
      `this room does not trust the signing key ${signed.fields.signer_fingerprint} for ${seat} and takes no new keys now: sign with a room certificate (db8 auth issue-cert --principal ${seat}@${s.roomId})`,
    );
  }
  await actAs(s, 'registering a key', { type: 'register_key', public_key: signed.keyHex });
  return `registered signing key ${signed.fields.signer_fingerprint} for ${seat}`;
}

export async function submit(file: string | undefined, o: SubmitOpts, resubmit: boolean) {
  const path = file ?? DRAFT;
  const { raw } = await readDraft(path);
  const roomHint = (raw as { room_id?: unknown } | null)?.room_id;
  const s = await loadSeat(o.url, o.room, {
    fallbackRoom: typeof roomHint === 'string' ? roomHint : undefined,
  });
  const seat = requireSeat(s, 'debater');
  const legal = legalOf(s, 'submit');
  if (!legal) throw notOpen('submit', s.view);
  const payload = await readValidDraft(path, legal);
  const stale = staleField(payload, legal, s.roomId);
  if (stale)
    throw new CliError(
      EXIT_REJECTED,
      `${path} is not for the open round (${stale}): run db8 draft open to update it`,
    );
  if (!resubmit && legal.version > 0) {
    throw new CliError(
      EXIT_REJECTED,
      `you already submitted version ${legal.version} of round ${legal.round_id}: db8 resubmit ${path} replaces it (until ${clock(legal.deadline_unix * 1000)})`,
    );
  }
  if (resubmit && legal.version === 0) {
    throw new CliError(
      EXIT_REJECTED,
      `nothing to resubmit in round ${legal.round_id} yet: use db8 submit ${path}`,
    );
  }
  if (o.sign && o.sig) throw new CliError(EXIT_REJECTED, 'give --sign <key> or --sig <file>, not both');
  const bytes = submissionBytes(payload);
  const principal = `${seat}@${payload.room_id}`;
  let signed: Signed | null = null;
  if (o.sign) signed = signWithKey(bytes, o.sign, { ...(o.cert ? { cert: o.cert } : {}), principal });
  else if (o.sig) signed = signatureFromFile(bytes, o.sig, path);
  if (!signed && legal.signatures === 'required') {
    throw new CliError(
      EXIT_REJECTED,
      `this room requires signed submissions: add --sign <key> or --sig <file>`,
    );
  }
  const note = signed ? await ensureKey(s, seat, signed) : null;
  if (note && !o.json) await out(note);
  const nonce = o.nonce ?? `cli-${sha256Hex(bytes).slice(0, 32)}`;
  const action = { type: 'submit', ...payload, client_nonce: nonce, ...(signed?.fields ?? {}) };
  let ack: { seq: number; duplicate: boolean };
  try {
    ack = await actAs(s, resubmit ? 'resubmit' : 'submit', action, nonce);
  } catch (e) {
    // The protocol's own idempotency: this exact payload and nonce is already in.
    if (!(e instanceof CliError && e.message.startsWith('DUPLICATE'))) throw e;
    ack = { seq: -1, duplicate: true };
  }
  const sha = submissionSha256(payload);
  const how = signed
    ? `ssh-signed (${signed.principals ? `certificate ${principal}` : 'key'} ${signed.fields.signer_fingerprint})`
    : 'unsigned (server attests)';
  if (o.json) {
    return out(
      JSON.stringify({
        room_id: s.roomId,
        seat,
        round_id: legal.round_id,
        version: ack.duplicate ? legal.version : legal.version + 1,
        canonical_sha256: sha,
        seq: ack.seq,
        duplicate: ack.duplicate,
        signed: signed !== null,
      }),
    );
  }
  if (ack.duplicate) return out(`already in: this exact submission was accepted before (sha256 ${sha})`);
  await out(
    `${resubmit ? 'resubmitted' : 'submitted'} ${seat}'s ${legal.phase} for round ${legal.round_id}: version ${legal.version + 1}, seq ${ack.seq}, sha256 ${sha}, ${how}`,
  );
  await out(
    `sealed until the round is published; the room is ${phaseUntil(s.view)}; next: db8 debate watch ${s.roomId}`,
  );
}
