import { type Cast, ed25519 } from '@db8/core';
import { ROOM_RULES } from './config.ts';
import { didKeyFromPublicKey } from './didkey.ts';
import { SIGNATURE_DOMAINS, signObject } from './signing.ts';

/**
 * The privacy kit's answer room (`Cast`, packages/core/src/protocol/cast.ts): an asker's signed
 * question, one responder who joins and answers (the answer is a marker), the asker's close. The
 * room is opened under its question id straight on the runtime, as a node opens it from the swarm
 * stream; its inputs come through the server-held relay seat. Nothing in an answer room is hidden
 * from anyone who can read the room, so the kit checks only that every path serves the log and the
 * view as they are, and that every export verifies and refolds.
 */

function keyOf(n: number) {
  const seed = new Uint8Array(32).fill(n);
  return { seed, participant: `participant:${didKeyFromPublicKey(ed25519.publicKeyFromSeed(seed))}` };
}
const ASKER = keyOf(41);
const RESPONDER = keyOf(42);
const NODE = 'node:kit';

export const questionCast: Cast = {
  protocol: 'question',
  public: 'everything in an answer room is public to whoever may read the room (its scope is the boundary)',
  room: ({ marks, now }) => {
    const qid = `question-${marks.text('question id')}`;
    const at = new Date(now).toISOString();
    const envelope = signObject(
      {
        'schema/v': 1,
        'question/id': qid,
        'created-at': at,
        'sender/node-id': NODE,
        'sender/participant-id': ASKER.participant,
        'sender/federation-id': 'fed:kit',
        'ttl-sec': 3600,
        'question/text': 'How should a federation rotate its trust root?',
        'question/tags': ['trust'],
        'delivery/scope': 'federation-local',
        'delivery/response-channel-id': qid,
        'follow-ups/allowed': true,
        'request/exposure-mode': 'federation-local',
        'reward/mode': 'none',
      },
      SIGNATURE_DOMAINS.question,
      ASKER.seed,
    );
    const input = (fields: Record<string, unknown>, n: number) =>
      signObject(
        {
          'schema/v': 1,
          'question/id': qid,
          'input/id': `in-${n}`,
          'created-at': at,
          'sender/node-id': NODE,
          'sender/participant-id': RESPONDER.participant,
          'sender/federation-id': 'fed:kit',
          ...fields,
        },
        SIGNATURE_DOMAINS.room,
        RESPONDER.seed,
      );
    const close = signObject(
      {
        'schema/v': 1,
        type: 'swarm/question-close',
        'question/id': qid,
        'created-at': at,
        'closed-by/node-id': NODE,
        'closed-by/participant-id': ASKER.participant,
        'closed-by/role': 'asker',
        'sender/federation-id': 'fed:kit',
        resolution: 'closed',
      },
      SIGNATURE_DOMAINS.close,
      ASKER.seed,
    );
    return {
      id: qid,
      title: 'privacy kit: a swarm question',
      // A room as a node opens one today: the latest room rules (docs/swarm.md "Message ids").
      config: { envelope, rules: ROOM_RULES },
      steps: [
        {
          kind: 'act',
          seat: 'relay',
          action: input(
            {
              type: 'swarm/room-join',
              'responder/models': ['model:kit'],
              'responder/languages': ['en'],
              'responder/tags': ['trust'],
            },
            1,
          ),
        },
        {
          kind: 'act',
          seat: 'relay',
          action: input(
            {
              type: 'swarm/room-message',
              'message/kind': 'answer',
              'message/text': marks.text('answer'),
              'origin/class': 'node-generated',
              'origin/speaker': 'model:kit',
              'origin/gateway': NODE,
            },
            2,
          ),
        },
        { kind: 'checkpoint', name: 'answered' },
        { kind: 'act', seat: 'relay', action: close },
      ],
    };
  },
};
