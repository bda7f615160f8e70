// `db8 debate transcript` (cli/transcript.ts): a debate as Markdown, made from the journal bundle
// the caller may export. A scripted debate played to its close gives every revealed submission —
// each by its debater, with claims and citations — the result and a footer naming the last signed
// tree head and `db8 verify`; in an open debate a sealed submission not yet revealed is in its
// author's export and transcript but not in an observer's.
import { parseJournalText } from '@db8/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedDecisions } from '../../agent/index.ts';
import { debateTranscript } from '../../cli/transcript.ts';
import { type DebateView, type LegalAction, SubmitActionSchema } from '../../rules/index.ts';
import { debateServer, TIMINGS } from './debate-harness.ts';

let s: Awaited<ReturnType<typeof debateServer>>;
beforeAll(async () => {
  s = await debateServer();
}, 60_000);
afterAll(async () => {
  await s?.close();
});

async function bundle(roomId: string, token?: string): Promise<string> {
  const r = await s.app.inject({
    method: 'GET',
    url: `/v1/rooms/${roomId}/export`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  expect(r.statusCode).toBe(200);
  return r.body;
}

interface BundleRecord {
  type: string;
  entry: { reveals?: { payload: unknown }[] };
  size: number;
  root_hash: string;
  text: string;
}

/** Markdown escapes some characters; compare text with them removed. */
const plain = (s: string) => s.replace(/\\(.)/g, '$1');

describe('debate transcript', () => {
  it('holds each revealed submission by its debater, the result, and the verify footer', async () => {
    const room = await s.createDebate({ max_rounds: 1, timings: TIMINGS });
    const R = room.room_id;
    await s.playToClose(R, await s.seatEveryone(R));
    const text = await bundle(R); // no token: an observer's export
    const records = parseJournalText(text).records.map((r) => r.value as BundleRecord);
    const revealed = records.flatMap((r) =>
      r.type === 'entry'
        ? (r.entry.reveals ?? []).flatMap((v) => {
            const a = SubmitActionSchema.safeParse(v.payload);
            return a.success ? [a.data] : [];
          })
        : [],
    );
    expect(revealed.length).toBeGreaterThanOrEqual(10); // five debaters, two rounds
    const md = debateTranscript(text, `${R}.jsonl`);
    const flat = plain(md);
    expect(md).toMatch(/^# Debate: Should cities ban cars\?/);
    for (const a of revealed) {
      expect(md).toContain(`### ${a.author_id.replace('_', '\\_')}`);
      for (const line of a.content.split('\n')) expect(flat).toContain(line.trim());
      for (const c of a.claims) expect(flat).toContain(c.text.replace(/\s*\n\s*/g, ' '));
      for (const c of a.citations) expect(md).toContain(c.url);
    }
    expect(md).toContain('## Result');
    expect(md).toMatch(/\| 1 \| anon\\_\d \|/);
    const head = records.filter((r) => r.type === 'checkpoint').at(-1)!;
    expect(md).toContain(`Signed tree head: size ${head.size}, root \`${head.root_hash}\``);
    expect(md).toContain(head.text.trimEnd());
    expect(md).toContain(`db8 verify ${R}.jsonl`);
    expect(md).toContain(`Room \`${R}\``);
  }, 120_000);

  it("leaves out a sealed submission an observer may not read; its author's transcript has it", async () => {
    const room = await s.createDebate({ max_rounds: 1, timings: TIMINGS });
    const R = room.room_id;
    const seats = await s.seatEveryone(R);
    const me = seats.get('anon_1')!;
    const st = await s.call('GET', `/v1/rooms/${R}/state`, { token: me.token });
    const view = st.body.view as DebateView;
    const legal = (st.body.legal?.actions ?? []) as LegalAction[];
    const submit = scriptedDecisions('anon_1', view, legal, {}).find((d) => d.action.type === 'submit')!;
    expect(submit).toBeDefined();
    const r = await s.call('POST', `/v1/rooms/${R}/actions`, {
      token: me.token,
      body: { seat: 'anon_1', action: submit.action, client_nonce: 'anon_1:transcript' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const content = SubmitActionSchema.parse(submit.action).content;
    const first = content.split('\n')[0]!.trim();
    const observer = plain(debateTranscript(await bundle(R)));
    expect(observer).not.toContain(first);
    expect(observer).toContain('No submission you may read yet');
    expect(observer).toContain('no result yet');
    const own = plain(debateTranscript(await bundle(R, me.token)));
    expect(own).toContain(first);
  }, 120_000);
});
