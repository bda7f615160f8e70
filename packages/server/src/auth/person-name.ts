/** The longest display name kept, in code points: an agent's name is at most 64 too (CreateAgentBodySchema). */
export const PERSON_NAME_MAX = 64;

// Control characters (C0, DEL, C1) and the bidirectional overrides and isolates, which can make a
// name read as something else around it; line and paragraph separators; lone surrogates (not text).
const UNSAFE = /[\p{Cc}\p{Cs}\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/gu;

/**
 * A person's display name from their verified identity token: `name`, else `preferred_username`
 * (never the email, never the `sub`), NFC-normalised, stripped of control and bidi characters,
 * runs of white space made one space, cut to PERSON_NAME_MAX code points; null when nothing is left.
 */
export function personName(claims: Record<string, unknown>): string | null {
  for (const key of ['name', 'preferred_username']) {
    const v = claims[key];
    if (typeof v !== 'string') continue;
    const clean = v.normalize('NFC').replace(UNSAFE, ' ').replace(/\s+/gu, ' ').trim();
    if (clean === '') continue;
    const cut = Array.from(clean).slice(0, PERSON_NAME_MAX).join('').trim();
    if (cut !== '') return cut;
  }
  return null;
}
