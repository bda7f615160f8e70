import { parseRfc3339 } from '@db8/core';
import type { QuestionConfig } from './config.ts';
import { ProfileOrDefault } from './config.ts';
import type { OriginClass, Profile } from './inputs.ts';

/** The facts of the question a room needs, read once from the (validated) envelope. */
export interface QuestionFacts {
  id: string;
  text: string;
  tags: string[];
  scope: string;
  askerNode: string;
  /** `sender/participant-id`, or `author/nym` on the pseudonymous path: the key the asker signs with. */
  asker: string;
  createdAt: number;
  deadline: number;
  followUps: boolean;
  modelsRequire: string[];
  modelsExclude: string[];
  minReputation: number | null;
  languages: string[];
  /** Rules 2: the asking federation (`sender/federation-id`), null when the envelope names none. */
  federation?: string | null;
}

export interface Responder {
  node: string;
  models: string[];
  languages: string[];
  tags: string[];
  reputation: number | null;
  joinedAt: number;
}

export interface Secretary {
  participant: string;
  node: string;
  via: 'delegation' | 'lapse';
  closeAllowed: boolean;
  since: number;
}

export interface RoomMessage {
  seq: number;
  id: string;
  /** Rules 2: the message's own key (`ownKeyOf`), which only its signer can produce. */
  key?: string;
  at: number;
  kind: 'answer' | 'follow-up' | 'clarification';
  text: string;
  author: string;
  origin: OriginClass;
  speaker: string;
  gateway: string;
  verdict: 'accept' | 'reject' | null;
  /** Rules 3: the roster node that countersigned the verdict (absent: none, or an older room). */
  verdictNode?: string;
}

export interface SummaryRecord {
  seq: number;
  id: string;
  /** Rules 2: the summary's own key (`ownKeyOf`). */
  key?: string;
  at: number;
  author: string;
  role: 'asker' | 'secretary' | 'participant';
  status: 'intermediate' | 'final';
  facts: string[];
  hypotheses: string[];
  recommendations: string[];
  uncertainty: number;
}

export interface ProfileChange {
  seq: number;
  profile: Profile;
  at: number;
  by: string | null;
}

export interface QuestionState {
  /** The room rules' revision (config `rules`); absent = 1, so rooms opened before keep their state. */
  rules?: number;
  question: QuestionFacts;
  settings: QuestionConfig['settings'];
  status: 'open' | 'closed' | 'expired';
  /** Current profile is the last entry; the first is the one the room opened with. */
  profiles: ProfileChange[];
  askerLastSeen: number;
  secretary: Secretary | null;
  participants: Record<string, Responder>;
  /** input id → seq: the replay guard. */
  seen: Record<string, number>;
  messages: RoomMessage[];
  summaries: SummaryRecord[];
  close: {
    resolution: string;
    by: string | null;
    role: 'asker' | 'secretary' | 'deadline';
    acceptedSummary: string | null;
    at: number;
  } | null;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);

/** The facts of a config's envelope; the config check (`envelopeRefusal`) has read every time. */
export function factsOf(env: Record<string, unknown>): QuestionFacts {
  const createdAt = parseRfc3339(env['created-at']);
  const ttl = env['ttl-sec'];
  // Unreachable through a checked config; a throw here refuses the room rather than hold NaN.
  if (createdAt === null || !Number.isSafeInteger(ttl)) throw new Error('question envelope: no valid time');
  const min = env['responder/min-reputation'];
  return {
    id: String(env['question/id']),
    text: String(env['question/text']),
    tags: strings(env['question/tags']),
    scope: String(env['delivery/scope']),
    askerNode: String(env['sender/node-id']),
    asker: String(env['author/nym'] ?? env['sender/participant-id']),
    createdAt,
    deadline: createdAt + (ttl as number) * 1000,
    followUps: env['follow-ups/allowed'] === true,
    modelsRequire: strings(env['models/require']),
    modelsExclude: strings(env['models/exclude']),
    minReputation: typeof min === 'number' ? min : null,
    languages: strings(env.languages),
  };
}

export function initialState(config: QuestionConfig, now: number): QuestionState {
  const facts = factsOf(config.envelope);
  const fed = config.envelope['sender/federation-id'];
  const v2 = config.rules !== undefined && config.rules > 1;
  const question = v2 ? { ...facts, federation: typeof fed === 'string' ? fed : null } : facts;
  const profile = ProfileOrDefault(question.scope, config.envelope['room-policy/profile']);
  return {
    ...(config.rules !== undefined && config.rules > 1 ? { rules: config.rules } : {}),
    question,
    settings: config.settings,
    status: now >= question.deadline ? 'expired' : 'open',
    profiles: [{ seq: 0, profile, at: question.createdAt, by: null }],
    askerLastSeen: question.createdAt,
    secretary: null,
    participants: {},
    seen: {},
    messages: [],
    summaries: [],
    close: null,
  };
}

export const currentProfile = (s: QuestionState): Profile =>
  (s.profiles[s.profiles.length - 1] as ProfileChange).profile;

export const askerLapsed = (s: QuestionState, now: number): boolean =>
  now - s.askerLastSeen >= s.settings.presenceLapseMs;

/** The role a signer holds in the room now, if any. */
export function roleOf(s: QuestionState, signer: string): 'asker' | 'secretary' | 'participant' | null {
  if (signer === s.question.asker) return 'asker';
  if (s.secretary?.participant === signer) return 'secretary';
  return s.participants[signer] ? 'participant' : null;
}
