import {
  attachSshsigCertificate,
  parseSshsig,
  SshVerifyError,
  toBase64,
  utf8Decode,
  utf8Encode,
  verifySshsig,
} from '@db8/core';
import type { ModuleRuntime, ZodTypeProvider } from '@db8/server/kit';
import { ApiError, actorFor, requireAuth } from '@db8/server/kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  CanonicalPayloadSchema,
  canonicalPayload,
  type DebateState,
  debate,
  SSHSIG_NAMESPACE,
  type SubmitAction,
  submissionBytes,
  submissionSha256,
} from '../rules/index.ts';

/**
 * Seed 000's literal RPC surface (Core §4 "Endpoint Contract", §6 "Server RPC Router"), beside
 * db8's own `POST /v1/rooms/:id/actions` (docs/debate.md, "Seed-literal client"):
 *
 * - `POST /rpc/submission.create`: the seed's payload plus its signature fields, signed the way the
 *   seed's CLI signs (`jq -S . draft.json > submission.json; ssh-keygen -Y sign … submission.json`).
 *   The signed bytes are `signed_b64` when the client sends them, else the `jq -S .` rendering of
 *   the payload (what the seed's `jq -n --argjson p "$(cat submission.json)"` body implies); they
 *   go into the submit action, where the protocol's own submit checks the signature over them and
 *   that they parse to this payload, and stores the canonical (RFC 8785) form. Written by
 *   `runtime.act`, the same write path as `/v1/rooms/:id/actions`.
 * - `POST /rpc/vote.continue`: `{room_id, round_id, choice}`.
 *
 * Answers `{ok, submission_id, canonical_sha256}`; errors keep db8's `{error:{code,message,details}}`
 * (the seed's Express sketch answers `{ok:false, error}`).
 */

const TruthySchema = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

export const SeedSubmissionBodySchema = CanonicalPayloadSchema.extend({
  signature_kind: z.enum(['ssh', 'ed25519']).optional(),
  signature_b64: z.string().min(1).max(16_000).optional(),
  signer_fingerprint: z.string().min(1).max(200).optional(),
  /** Base64 of the exact file signed (`base64 -w0 submission.json`); default: its `jq -S .` form. */
  signed_b64: z.string().min(1).max(24_000).optional(),
  /** Base64 (or text) of `id_ed25519-cert.pub`, when the signature holds the plain key. */
  ssh_cert: z.string().min(1).max(16_000).optional(),
  /** Idempotency key (seed §4); default: derived from the canonical hash, so a retry is a duplicate. */
  client_nonce: z.string().min(1).max(128).optional(),
  dry_run: TruthySchema.optional(),
}).strict();

export const SeedSubmissionResponseSchema = z.object({
  ok: z.literal(true),
  /** `<room_id>:<seq>`: the log entry holding the submission (null for a dry run). */
  submission_id: z.string().nullable(),
  canonical_sha256: z.string(),
  duplicate: z.boolean(),
});

export const SeedContinueVoteBodySchema = z
  .object({
    room_id: z.string().min(1).max(200),
    round_id: z.string().min(1).max(200),
    choice: z.enum(['continue', 'end']),
    client_nonce: z.string().min(1).max(128).optional(),
  })
  .strict();

const DryRunQuerySchema = z.object({ dry_run: TruthySchema.optional() });

/** What `jq -S .` prints for a JSON value: keys sorted, two-space indent, a final newline. */
export function jqSortedText(value: unknown, escapeDel = false): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
          )
        : v;
  const text = `${JSON.stringify(sort(value), null, 2)}\n`;
  // jq writes DEL as \u007f; JSON.stringify leaves it raw.
  return escapeDel ? text.replaceAll('\u007f', '\\u007f') : text;
}

/** The candidate the SSHSIG signs, judged by the key inside it (the protocol then checks the trust). */
function signedCandidate(armored: string, candidates: readonly string[]): string | null {
  let key: Uint8Array;
  try {
    key = parseSshsig(armored).publicKey;
  } catch {
    return null;
  }
  for (const text of candidates) {
    const r = verifySshsig({
      armored,
      message: utf8Encode(text),
      namespace: SSHSIG_NAMESPACE,
      trust: { publicKeys: [key] },
    });
    if (r.ok) return text;
  }
  return null;
}

const textOf = (b64OrText: string) => {
  const t = b64OrText.trim();
  return t.startsWith('-----BEGIN') || t.startsWith('ssh-') ? t : utf8Decode(Buffer.from(t, 'base64')).trim();
};

/** The submit action a seed-literal body stands for (signature fields normalized to db8's). */
export function submitActionOf(body: z.infer<typeof SeedSubmissionBodySchema>): SubmitAction {
  const payload = canonicalPayload(body);
  const sha = submissionSha256(payload);
  const action: SubmitAction = {
    type: 'submit',
    ...payload,
    client_nonce: body.client_nonce ?? `seed:${sha}`,
  };
  if (body.signer_fingerprint !== undefined) action.signer_fingerprint = body.signer_fingerprint;
  if (body.signature_kind === undefined || body.signature_b64 === undefined) {
    if (body.signature_kind !== undefined) action.signature_kind = body.signature_kind;
    if (body.signature_b64 !== undefined) action.signature_b64 = body.signature_b64;
    if (body.signed_b64 !== undefined) action.signed_b64 = body.signed_b64;
    return action;
  }
  action.signature_kind = body.signature_kind;
  action.signature_b64 = body.signature_b64;
  if (body.signature_kind !== 'ssh') {
    if (body.signed_b64 !== undefined) action.signed_b64 = body.signed_b64;
    return action;
  }
  let armored = textOf(body.signature_b64);
  if (body.ssh_cert !== undefined) {
    try {
      armored = attachSshsigCertificate(armored, textOf(body.ssh_cert));
    } catch (e) {
      const why = e instanceof SshVerifyError ? e.message : 'ssh_cert is not an SSH certificate';
      throw new ApiError(400, 'BAD_SIGNATURE', why);
    }
  }
  action.signature_b64 = toBase64(utf8Encode(armored));
  if (body.signed_b64 !== undefined) {
    action.signed_b64 = body.signed_b64;
    return action;
  }
  // No file sent: the bytes signed are the seed CLI's rendering of this payload (or db8's own).
  const canonical = utf8Decode(submissionBytes(payload));
  const jq = jqSortedText(payload);
  const signed = signedCandidate(armored, [jq, jqSortedText(payload, true), canonical]) ?? jq;
  if (signed !== canonical) action.signed_b64 = toBase64(utf8Encode(signed));
  return action;
}

type CompatRuntime = Pick<ModuleRuntime, 'act' | 'getRoom' | 'protocolState' | 'seatOf' | 'now'>;

export function seedCompatRoutes(root: FastifyInstance, runtime: CompatRuntime): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['seed-compat'];

  /** These routes speak only to debate rooms (another protocol's state is not a DebateState). */
  async function mustBeDebate(roomId: string) {
    const info = await runtime.getRoom(roomId);
    if (info.protocol !== 'debate') throw new ApiError(404, 'NOT_A_DEBATE', `room ${roomId} is not a debate`);
  }
  async function debateState(roomId: string) {
    await mustBeDebate(roomId);
    return runtime.protocolState(roomId);
  }

  async function dryRun(roomId: string, seat: string, principal: string | undefined, action: SubmitAction) {
    const room = await debateState(roomId);
    if (room.closed) throw new ApiError(409, 'ROOM_CLOSED', 'the room is closed');
    if (principal !== undefined && (await runtime.seatOf(roomId, principal)) !== seat) {
      throw new ApiError(403, 'SEAT_NOT_HELD', `you do not hold seat ${seat}`);
    }
    // The protocol's own apply on the current state, its result dropped: nothing is written.
    const r = debate.apply(room.state as DebateState, {
      seat,
      action,
      now: runtime.now(),
      seq: room.seq + 1,
    });
    if (!r.ok) throw new ApiError(409, r.error.code, r.error.message, r.error.details);
  }

  app.post(
    '/rpc/submission.create',
    {
      schema: {
        tags,
        summary: "Seed 000's submission.create: a payload signed as `jq -S .` bytes (or unsigned)",
        querystring: DryRunQuerySchema,
        body: SeedSubmissionBodySchema,
        response: { 200: SeedSubmissionResponseSchema },
      },
    },
    async (req) => {
      const auth = requireAuth(req);
      const b = req.body;
      const seat = b.author_id;
      const principal = actorFor(auth, b.room_id, seat);
      const action = submitActionOf(b);
      const sha = submissionSha256(action);
      if (b.dry_run === true || req.query.dry_run === true) {
        await dryRun(b.room_id, seat, principal, action);
        return { ok: true as const, submission_id: null, canonical_sha256: sha, duplicate: false };
      }
      await mustBeDebate(b.room_id);
      const ack = await runtime.act(b.room_id, {
        seat,
        action,
        clientNonce: action.client_nonce,
        ...(principal !== undefined ? { principal } : {}),
      });
      return {
        ok: true as const,
        submission_id: `${b.room_id}:${ack.seq}`,
        canonical_sha256: sha,
        duplicate: ack.duplicate,
      };
    },
  );

  app.post(
    '/rpc/vote.continue',
    {
      schema: {
        tags,
        summary: "Seed 000's vote.continue: {room_id, round_id, choice} for the caller's debater seat",
        body: SeedContinueVoteBodySchema,
        response: { 200: z.object({ ok: z.literal(true), seq: z.number().int(), duplicate: z.boolean() }) },
      },
    },
    async (req) => {
      const auth = requireAuth(req);
      const b = req.body;
      if (auth.seat === null)
        throw new ApiError(400, 'SEAT_REQUIRED', 'vote with a token scoped to your seat');
      const principal = actorFor(auth, b.room_id, auth.seat);
      const room = await debateState(b.room_id);
      const state = room.state as DebateState;
      const current = state.round > 0 ? state.rounds[state.round - 1] : undefined;
      if (current?.round_id !== b.round_id) {
        throw new ApiError(409, 'ROUND_MISMATCH', 'round_id does not name the current round', {
          round_id: current?.round_id ?? null,
        });
      }
      const ack = await runtime.act(b.room_id, {
        seat: auth.seat,
        action: { type: 'vote_continue', choice: b.choice },
        ...(b.client_nonce !== undefined ? { clientNonce: b.client_nonce } : {}),
        ...(principal !== undefined ? { principal } : {}),
      });
      return { ok: true as const, seq: ack.seq, duplicate: ack.duplicate };
    },
  );
}
