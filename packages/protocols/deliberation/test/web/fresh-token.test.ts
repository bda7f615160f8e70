import { describe, expect, it } from 'vitest';
import { sendWithFreshToken } from '../../web/fresh-token.ts';

const stale = Object.assign(new Error('the turn token is not the current one for this seat'), {
  code: 'STALE_TURN_TOKEN',
});

/** A server whose current token is `current`: any other is refused as stale. */
function server(current: string) {
  const sent: (string | null)[] = [];
  const send = async (t: string | null) => {
    sent.push(t);
    if (t !== current) throw stale;
    return { seq: 7 } as never;
  };
  return { sent, send };
}

describe('a deliberation turn sent with a stale token', () => {
  it('is sent once more with the fresh token while the step is the same', async () => {
    const s = server('1.proposal.0.0.5');
    const ack = await sendWithFreshToken(
      s.send,
      async () => '1.proposal.0.0.5',
      '1.proposal.0.0.3',
      '1.proposal.0.0',
    );
    expect(ack).toEqual({ seq: 7 });
    expect(s.sent).toEqual(['1.proposal.0.0.3', '1.proposal.0.0.5']);
  });

  it('is refused as the server refused it once the step moved on, and never retried twice', async () => {
    const s = server('1.convergence.0.0.9');
    await expect(
      sendWithFreshToken(s.send, async () => '1.convergence.0.0.9', '1.proposal.0.0.3', '1.proposal.0.0'),
    ).rejects.toBe(stale);
    expect(s.sent).toEqual(['1.proposal.0.0.3']);
    const same = server('x');
    await expect(
      sendWithFreshToken(same.send, async () => '1.proposal.0.0.3', '1.proposal.0.0.3', '1.proposal.0.0'),
    ).rejects.toBe(stale);
    expect(same.sent).toEqual(['1.proposal.0.0.3']);
  });

  it('passes any other refusal through untouched', async () => {
    const other = Object.assign(new Error('no'), { code: 'MISSING_CODE' });
    let reads = 0;
    await expect(
      sendWithFreshToken(
        async () => {
          throw other;
        },
        async () => {
          reads++;
          return 'a';
        },
        't',
        's',
      ),
    ).rejects.toBe(other);
    expect(reads).toBe(0);
  });
});
