import type { Ack, ActionError } from '@db8/web/kit';

/**
 * Sends a seat's turn, once more with a fresh token when the server says the one the page holds is
 * stale. A deliberation's turn token moves whenever any seat acts (its counter), so another seat's
 * turn can land between the page's last state and the person's click (seen in CI: a proposal
 * refused STALE_TURN_TOKEN while the form stayed on screen). The retry happens only while the step is the form's own
 * (`<round>.<phase>.<pass>.<step>.` is the token's prefix): a token of a later step is refused as
 * the server refused it.
 */
export async function sendWithFreshToken(
  send: (token: string | null) => Promise<Ack>,
  readToken: () => Promise<string | null>,
  token: string | null,
  step: string,
): Promise<Ack> {
  try {
    return await send(token);
  } catch (err) {
    if ((err as ActionError).code !== 'STALE_TURN_TOKEN') throw err;
    const fresh = await readToken();
    if (fresh === null || fresh === token || !fresh.startsWith(`${step}.`)) throw err;
    return send(fresh);
  }
}
