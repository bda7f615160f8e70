// Client-signed swarm objects: the user's own OpenSSH Ed25519 key signs questions and room inputs
// (the same bytes and domains every node's gate checks), so the node relays them with no authority.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CliError, EXIT_INVALID_INPUT, EXIT_IO_ERROR } from '@db8/cli/kit';
import { absPath } from '@db8/cli/kit-run';
import { ed25519, parseOpenSshPrivateKey } from '@db8/core';
import { didKeyFromPublicKey, SIGNATURE_DOMAINS, signObject } from '../rules/index.ts';

export interface Signer {
  seed: Uint8Array;
  /** `participant:did:key:z…` of the key. */
  participant: string;
}

export function readSigner(file: string): Signer {
  const path = absPath(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new CliError(EXIT_IO_ERROR, `cannot read ${file} (${(e as NodeJS.ErrnoException).code})`);
  }
  let seed: Uint8Array;
  try {
    seed = parseOpenSshPrivateKey(text).seed;
  } catch (e) {
    throw new CliError(EXIT_INVALID_INPUT, `${file}: ${(e as Error).message}`);
  }
  const participant = `participant:${didKeyFromPublicKey(ed25519.publicKeyFromSeed(seed))}`;
  return { seed, participant };
}

const fresh = (prefix: string) => `${prefix}-${randomBytes(10).toString('hex')}`;

/** What `db8 swarm ask` puts in an envelope; the node's `ask` draft carries the same fields. */
export interface AskFields {
  text: string;
  tags: string[];
  scope: string;
  ttl_sec: number;
  question_id?: string;
  follow_ups: boolean;
  languages?: string[];
  models_require?: string[];
  models_exclude?: string[];
  min_reputation?: number;
}

const EXPOSURE: Record<string, string> = {
  'private-to-swarm': 'private-to-swarm',
  'federation-local': 'federation-local',
  'cross-federation': 'public-call-for-help',
  global: 'public-call-for-help',
};

/** A question-envelope.v1 signed by `s`, entering through `nodeId`. */
export function signedEnvelope(
  a: AskFields,
  s: Signer,
  nodeId: string,
  federationId: string,
  now = Date.now(),
): Record<string, unknown> {
  const id = a.question_id ?? fresh('question');
  const env: Record<string, unknown> = {
    'schema/v': 1,
    'question/id': id,
    'created-at': new Date(now).toISOString(),
    'sender/node-id': nodeId,
    'sender/participant-id': s.participant,
    'sender/federation-id': federationId,
    'ttl-sec': a.ttl_sec,
    'question/text': a.text,
    'question/tags': a.tags,
    'delivery/scope': a.scope,
    'delivery/response-channel-id': id,
    'follow-ups/allowed': a.follow_ups,
    'request/exposure-mode': EXPOSURE[a.scope],
    'reward/mode': 'none',
  };
  if (a.languages?.length) env.languages = a.languages;
  if (a.models_require?.length) env['models/require'] = a.models_require;
  if (a.models_exclude?.length) env['models/exclude'] = a.models_exclude;
  if (a.min_reputation !== undefined) env['responder/min-reputation'] = a.min_reputation;
  return signObject(env, SIGNATURE_DOMAINS.question, s.seed);
}

/**
 * A room input (a draft's fields completed with the signer's identity) signed by `s`: summaries
 * and closes in their own domains, everything else as a room input.
 */
export function signedInput(
  draft: { type: string } & Record<string, unknown>,
  questionId: string,
  s: Signer,
  nodeId: string,
  /** The node's federation: a federation-scoped room takes only its own (docs/swarm.md "Scope"). */
  federationId: string | null = null,
  now = Date.now(),
): Record<string, unknown> {
  const common = {
    'schema/v': 1,
    'question/id': questionId,
    'created-at': new Date(now).toISOString(),
    ...(federationId ? { 'sender/federation-id': federationId } : {}),
  };
  if (draft.type === 'swarm/question-summary') {
    const body = {
      'summary/id': fresh('summary'),
      ...draft,
      ...common,
      'author/node-id': nodeId,
      'author/participant-id': s.participant,
    };
    return signObject(body, SIGNATURE_DOMAINS.summary, s.seed);
  }
  if (draft.type === 'swarm/question-close') {
    const body = {
      ...draft,
      ...common,
      'closed-by/node-id': nodeId,
      'closed-by/participant-id': s.participant,
    };
    return signObject(body, SIGNATURE_DOMAINS.close, s.seed);
  }
  const body = {
    'input/id': fresh('input'),
    ...(draft.type === 'swarm/room-message' ? { 'origin/gateway': nodeId } : {}),
    ...draft,
    ...common,
    'sender/node-id': nodeId,
    'sender/participant-id': s.participant,
  };
  return signObject(body, SIGNATURE_DOMAINS.room, s.seed);
}
