import { type Refusal, refuse } from './codes.ts';
import type { Join, OriginClass, Profile } from './inputs.ts';
import type { QuestionFacts, QuestionState } from './state.ts';

/**
 * Who may join (the envelope's responder filters) and which messages a profile admits. Each
 * refusal has its own code so a responder learns exactly which filter it failed.
 */

/** Models: at least one required label (when any are required), none excluded. */
export function filterRefusal(
  q: QuestionFacts,
  join: Join,
  requireSharedTag: boolean,
  /** The reputation the room can verify (rules 2), or the join's own figure (rules 1). */
  reputation: number | null,
): Refusal | null {
  const models = join['responder/models'];
  const excluded = models.filter((m) => q.modelsExclude.includes(m));
  if (excluded.length > 0)
    return refuse('MODEL_EXCLUDED', 'a declared model is excluded', { excluded }).error;
  if (q.modelsRequire.length > 0 && !models.some((m) => q.modelsRequire.includes(m))) {
    return refuse('MODEL_REQUIRED', 'none of the required models is declared', { required: q.modelsRequire })
      .error;
  }
  if (q.minReputation !== null) {
    const rep = reputation;
    if (rep === null) return refuse('REPUTATION_UNKNOWN', 'this question needs a reputation').error;
    if (rep < q.minReputation) {
      return refuse('REPUTATION_TOO_LOW', `reputation ${rep} < ${q.minReputation}`, { min: q.minReputation })
        .error;
    }
  }
  // BCP 47 primary subtag match: `en-GB` answers a question asking for `en`.
  const primary = (l: string) => l.toLowerCase().split('-')[0];
  const wanted = q.languages.map(primary);
  if (wanted.length > 0 && !join['responder/languages'].some((l) => wanted.includes(primary(l)))) {
    return refuse('LANGUAGE_MISMATCH', 'no shared answer language', { languages: q.languages }).error;
  }
  if (requireSharedTag && !join['responder/tags'].some((t) => q.tags.includes(t))) {
    return refuse('NO_SHARED_TAG', 'no shared tag with the question', { tags: q.tags }).error;
  }
  return null;
}

/** The origin classes each profile admits (clients offer only these). */
export const ADMITTED_ORIGINS: Record<Profile, readonly OriginClass[]> = {
  none: ['node-generated'],
  'mediated-only': ['node-generated', 'node-mediated-human'],
  'direct-live-allowed': ['node-generated', 'node-mediated-human', 'human-live'],
};

/** Upstream proposal 005: a profile admits origin classes; live humans need a secretary present. */
export function originRefusal(s: QuestionState, profile: Profile, origin: OriginClass): Refusal | null {
  if (!ADMITTED_ORIGINS[profile].includes(origin)) {
    return refuse('ORIGIN_NOT_ALLOWED', `${origin} is not admitted under ${profile}`, { profile }).error;
  }
  if (origin === 'human-live' && s.secretary === null) {
    return refuse('SECRETARY_REQUIRED', 'human-live messages need a secretary in the room').error;
  }
  return null;
}
