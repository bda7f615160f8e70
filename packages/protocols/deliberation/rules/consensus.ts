/**
 * Consensus (upstream's formula), per phase and per round:
 *
 *   consensus = 0.4 · meanConfidence + 0.4 · topShare + 0.2 · agreement
 *
 *   meanConfidence  mean of the responses' self-reported confidence (0–1)
 *   topShare        responses backing the most-backed candidate ÷ all responses (a response that
 *                   backs nobody counts in the denominator only)
 *   agreement       mean pairwise Jaccard similarity of the responses' normalised token sets
 *                   (NFKC, lower case, split on anything not a letter or digit, as sets); 1 with
 *                   fewer than two responses, and two empty texts agree fully.
 *
 * Failed turns are not responses: they enter none of the three terms. No responses → 0.
 */

export interface Response {
  confidence: number;
  /** The candidate (seat id) the response backs, or null. */
  support: string | null;
  text: string;
}

export interface ConsensusScore {
  score: number;
  meanConfidence: number;
  topShare: number;
  /** The most-backed candidate (ties: the smallest id), null when nobody backs anyone. */
  topChoice: string | null;
  agreement: number;
  responses: number;
}

export const WEIGHTS = { confidence: 0.4, topShare: 0.4, agreement: 0.2 } as const;

export function tokenSet(text: string): Set<string> {
  return new Set(
    text
      .normalize('NFKC')
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((t) => t.length > 0),
  );
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let both = 0;
  for (const t of a) if (b.has(t)) both++;
  return both / (a.size + b.size - both);
}

export function agreementOf(texts: readonly string[]): number {
  if (texts.length < 2) return 1;
  const sets = texts.map(tokenSet);
  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < sets.length; i++)
    for (let j = i + 1; j < sets.length; j++) {
      sum += jaccard(sets[i]!, sets[j]!);
      pairs++;
    }
  return sum / pairs;
}

export function consensusOf(responses: readonly Response[]): ConsensusScore {
  const n = responses.length;
  if (n === 0)
    return { score: 0, meanConfidence: 0, topShare: 0, topChoice: null, agreement: 0, responses: 0 };
  const meanConfidence = responses.reduce((s, r) => s + r.confidence, 0) / n;
  const counts = new Map<string, number>();
  for (const r of responses) if (r.support !== null) counts.set(r.support, (counts.get(r.support) ?? 0) + 1);
  let topChoice: string | null = null;
  let top = 0;
  for (const [id, c] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    if (c > top) {
      top = c;
      topChoice = id;
    }
  const topShare = top / n;
  const agreement = agreementOf(responses.map((r) => r.text));
  const score =
    WEIGHTS.confidence * meanConfidence + WEIGHTS.topShare * topShare + WEIGHTS.agreement * agreement;
  return { score, meanConfidence, topShare, topChoice, agreement, responses: n };
}
