// Random and hostile swarm message sequences (issue 23, "no poison message"), shared by the
// in-process fuzz test (swarm.fuzz.test.ts) and the two-node one on a real nats-server
// (swarm.fuzz.int.test.ts). A step (swarm-fuzz-steps.ts) is data drawn by fast-check; `buildStep`
// turns it into a stream message (signed at the stream's clock) or a REST call.
import { SIGNATURE_DOMAINS, type SignatureDomain, signObject } from '../../rules/index.ts';
import type { Subjects } from '../../server/subjects.ts';
import {
  HOSTILE_IDS,
  KEYS,
  questionIds,
  SCOPES,
  type Scope,
  type Step,
  type TimePick,
} from './swarm-fuzz-steps.ts';

export { OPENING, type Step, StepArb } from './swarm-fuzz-steps.ts';

function timeOf(t: TimePick, now: number): string {
  if ('off' in t) return new Date(now + t.off).toISOString();
  if (t.fixed === 'leap') return `${new Date(now).toISOString().slice(0, 10)}T23:59:60Z`;
  return t.fixed;
}

function mutate(
  obj: Record<string, unknown>,
  mutation: string,
  idField: string,
  pick: number,
): Record<string, unknown> {
  const o = { ...obj };
  const keys = Object.keys(o).filter((k) => k !== 'signature');
  if (mutation === 'drop') delete o[keys[pick % keys.length] as string];
  if (mutation === 'hostile-id') o[idField] = HOSTILE_IDS[pick % HOSTILE_IDS.length];
  if (mutation === 'extra') o['x-extra'] = 1;
  if (mutation === 'wrong-type') o[keys[pick % keys.length] as string] = pick % 2 ? 42 : null;
  return o;
}

function sign(body: Record<string, unknown>, domain: SignatureDomain, signer: number, forge: boolean) {
  const key = KEYS[(forge ? signer + 1 : signer) % KEYS.length] as (typeof KEYS)[number];
  return signObject(body, domain, key.seed);
}

/** A text pick: `LONG` stands for 9,000 characters (kept short in fast-check's reports). */
const textOf = (t: string) => (t === 'LONG' ? 'x'.repeat(9000) : t || 'Q?');

export interface Built {
  /** A stream message (subject, body), or a REST call on one node. */
  stream?: { subject: string; body: unknown; id: string };
  rest?: { node: number; method: 'POST'; path: string; body: unknown };
  advanceMs?: number;
  /** Send the `replay`-th last stream message of the run again, under a new message id. */
  replay?: number;
}

/** What one step becomes at stream time `now` (`seq`: a unique counter of the run). */
export function buildStep(
  raw: Step,
  ctx: { run: string; now: number; seq: number; subjects: Subjects },
): Built {
  const step = cleaned(raw);
  const ids = questionIds(ctx.run);
  const s = ctx.subjects;
  const uid = `${ctx.run}-${ctx.seq}`;
  if (step.kind === 'advance') return { advanceMs: step.ms };
  if (step.kind === 'replay') return { replay: step.back };
  if (step.kind === 'question') {
    const qid = ids[step.qid % ids.length] as string;
    const signer = KEYS[step.signer] as (typeof KEYS)[number];
    let env: Record<string, unknown> = {
      'schema/v': 1,
      'question/id': qid,
      'created-at': timeOf(step.created, ctx.now),
      'sender/node-id': `node:fuzz${step.signer}`,
      'sender/participant-id': signer.id,
      'sender/federation-id': 'federation:local',
      'ttl-sec': step.ttl,
      'question/text': textOf(step.text),
      'question/tags': [step.tag],
      'delivery/scope': step.scope,
      'delivery/response-channel-id': qid,
      'request/exposure-mode':
        step.scope === 'cross-federation' || step.scope === 'global' ? 'public-call-for-help' : step.scope,
      'reward/mode': 'none',
      'follow-ups/allowed': true,
    };
    if (step.profile) env['room-policy/profile'] = step.profile;
    env = mutate(env, step.mutation, 'question/id', step.qid);
    const body = sign(env, SIGNATURE_DOMAINS.question, step.signer, step.mutation === 'forge');
    const on = step.misrouted ? (SCOPES[(SCOPES.indexOf(step.scope) + 1) % 4] as string) : step.scope;
    return { stream: { subject: s.publish(on), body, id: `q-${uid}` } };
  }
  if (step.kind === 'tick') {
    const qid = ids[step.qid % ids.length] as string;
    return {
      stream: {
        subject: s.room(qid, SCOPES[step.qid % 4] as string),
        body: { type: 'db8/swarm/room-tick', 'question/id': qid },
        id: `t-${uid}`,
      },
    };
  }
  if (step.kind === 'garbage') {
    const subject =
      step.where === 'room'
        ? s.room(ids[0] as string, 'global')
        : `${s.prefix}swarm.question.${step.where}.global`;
    const body = typeof step.body === 'string' ? step.body : JSON.stringify(step.body);
    return { stream: { subject, body: { raw: body }, id: `g-${uid}` } };
  }
  if (step.kind === 'rest') return { rest: restCall(step, ids, uid) };
  // A room input of any type, mostly well-formed, from one of the pool's keys.
  const qid = ids[step.qid % ids.length] as string;
  const signer = KEYS[step.signer] as (typeof KEYS)[number];
  const created = timeOf(step.created, ctx.now);
  const node = `node:fuzz${step.signer}`;
  let body: Record<string, unknown>;
  let domain: SignatureDomain = SIGNATURE_DOMAINS.room;
  let idField = 'input/id';
  const common = {
    'schema/v': 1,
    type: step.type,
    'question/id': qid,
    'created-at': created,
    // Mostly the asking federation; now and then another (federation-scoped rooms refuse it).
    'sender/federation-id': step.pick % 7 === 0 ? 'federation:other' : 'federation:local',
  };
  if (step.type === 'swarm/question-summary') {
    domain = SIGNATURE_DOMAINS.summary;
    idField = 'summary/id';
    body = {
      ...common,
      'summary/id': `s-${uid}`,
      'author/node-id': node,
      'author/participant-id': signer.id,
      'author/role': ['asker', 'secretary', 'participant'][step.pick % 3],
      status: step.pick % 2 ? 'final' : 'intermediate',
      'content/facts': [textOf(step.text)],
      'content/hypotheses': [],
      'content/recommendations': [],
      'content/uncertainty': (step.pick % 11) / 10,
    };
  } else if (step.type === 'swarm/question-close') {
    domain = SIGNATURE_DOMAINS.close;
    idField = 'closed-by/node-id';
    const accepted = step.pick % 3 === 0;
    body = {
      ...common,
      'closed-by/node-id': node,
      'closed-by/participant-id': signer.id,
      'closed-by/role': step.pick % 2 ? 'asker' : 'secretary',
      resolution: accepted ? 'accepted-answer' : 'closed',
      ...(accepted ? { 'accepted-summary/id': `s-${ctx.run}-${step.pick}` } : {}),
    };
  } else {
    body = { ...common, 'input/id': `i-${uid}`, 'sender/node-id': node, 'sender/participant-id': signer.id };
    if (step.type === 'swarm/room-join') {
      Object.assign(body, {
        'responder/models': ['model:x'],
        'responder/languages': ['en'],
        'responder/tags': ['t'],
        'responder/reputation': (step.pick % 11) / 10,
      });
    }
    if (step.type === 'swarm/room-message') {
      Object.assign(body, {
        'message/kind': ['answer', 'follow-up', 'clarification'][step.pick % 3],
        'message/text': textOf(step.text),
        'origin/class': ['node-generated', 'node-mediated-human', 'human-live'][step.pick % 3],
        'origin/speaker': step.pick % 5 ? 'model:x' : 'who\r\nQUIT',
        'origin/gateway': node,
      });
    }
    if (step.type === 'swarm/room-verdict') {
      Object.assign(body, { 'verdict/input-id': `i-${ctx.run}-${step.pick}`, 'verdict/decision': 'accept' });
    }
    if (step.type === 'swarm/room-delegate') {
      const to = KEYS[step.pick % KEYS.length] as (typeof KEYS)[number];
      Object.assign(body, {
        'secretary/participant-id': to.id,
        'secretary/node-id': node,
        'close/allowed': true,
      });
    }
    if (step.type === 'swarm/room-policy') {
      body['room-policy/profile'] = ['none', 'mediated-only', 'direct-live-allowed'][step.pick % 3];
    }
  }
  body = mutate(body, step.mutation, idField, step.pick);
  const signed = sign(body, domain, step.signer, step.mutation === 'forge');
  const scope = SCOPES[step.qid % 4] as string;
  const kind =
    step.type === 'swarm/question-summary'
      ? 'summary'
      : step.type === 'swarm/question-close'
        ? 'close'
        : 'room';
  const subject = step.wrongSubject
    ? s.summary(scope)
    : kind === 'summary'
      ? s.summary(scope)
      : kind === 'close'
        ? s.close(scope)
        : s.room(qid, scope);
  return { stream: { subject, body: signed, id: `i-${uid}` } };
}

function cleaned(step: Step): Step {
  if (step.kind === 'question' && step.clean) {
    const ttl = [2, 60, 3600][step.qid % 3] as 2;
    // Inputs for a question id travel on the scope `buildStep` derives from the id.
    const scope = SCOPES[step.qid % 4] as Scope;
    return {
      ...step,
      ttl,
      scope,
      created: { off: 0 },
      misrouted: false,
      tag: 't',
      mutation: 'none',
      profile: undefined,
    };
  }
  if (step.kind === 'input' && step.clean)
    return { ...step, created: { off: 0 }, mutation: 'none', wrongSubject: false };
  return step;
}

function restCall(step: Extract<Step, { kind: 'rest' }>, ids: string[], uid: string): Built['rest'] {
  const qid = ids[step.qid % ids.length] as string;
  const path = `/v1/swarm/questions/${encodeURIComponent(qid)}/inputs`;
  const post = (p: string, body: unknown) => ({ node: step.node, method: 'POST' as const, path: p, body });
  switch (step.what) {
    case 'ask': {
      const ask: Record<string, unknown> = {
        text: textOf(step.text),
        tags: ['t'],
        scope: SCOPES[step.qid % 4],
        ttl_sec: step.ttl,
        question_id: step.mutation === 'hostile-id' ? qid : `r${uid}`,
      };
      return post('/v1/swarm/questions', {
        ask: mutate(ask, step.mutation === 'hostile-id' ? 'none' : step.mutation, 'question_id', step.qid),
      });
    }
    case 'join':
      return post(path, {
        draft: {
          type: 'swarm/room-join',
          'responder/models': [],
          'responder/languages': ['en'],
          'responder/tags': ['t'],
        },
      });
    case 'answer':
      return post(path, {
        draft: {
          type: 'swarm/room-message',
          'message/kind': 'answer',
          'message/text': textOf(step.text),
          'origin/class': 'node-generated',
          'origin/speaker': step.mutation === 'hostile-id' ? 'a\r\nb' : 'model:x',
        },
      });
    case 'summary':
      return post(path, {
        draft: {
          type: 'swarm/question-summary',
          'author/role': 'asker',
          status: 'final',
          'content/facts': [],
          'content/hypotheses': [],
          'content/recommendations': [],
          'content/uncertainty': 0.5,
          ...(step.mutation === 'hostile-id' ? { 'summary/id': 's\r\n1' } : {}),
        },
      });
    case 'close':
      return post(path, {
        draft: { type: 'swarm/question-close', 'closed-by/role': 'asker', resolution: 'closed' },
      });
    case 'takeover':
      return post(path, { draft: { type: 'swarm/room-takeover' } });
    default:
      return post(path, { input: { type: 'swarm/room-presence', 'question/id': qid } });
  }
}
