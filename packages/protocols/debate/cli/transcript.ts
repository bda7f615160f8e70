// A debate as a readable Markdown transcript, made from its journal bundle (`db8 export`, or the
// one `db8 debate transcript` fetches): the motion, the debaters, each published round's
// submissions with their claims and citations, the result, and a footer naming the signed tree
// head and how to check it with `db8 verify`. It reads only the bundle, which the server redacts
// for the credential that exported it: a sealed submission not yet revealed is not in it, so it is
// not in the transcript either.
import { journalEntries, parseJournalText } from '@db8/core';
import { DebateConfigSchema, ResultsSchema, type SubmitAction, SubmitActionSchema } from '../rules/index.ts';

/** The bundle's header and checkpoint records (its entries are read with core's journalEntries). */
type Rec = { type?: string; room?: string; size?: number; root_hash?: string; text?: string };

/** Markdown text: no raw HTML, and a line break or `#` at the start of a line cannot start a block. */
const inline = (s: string) => s.replace(/[\\`*_[\]<>|]/g, (c) => `\\${c}`).replace(/\s*\n\s*/g, ' ');
const block = (s: string) =>
  s
    .split('\n')
    .map((l) => `> ${l.replace(/[\\`*_[\]<>|#]/g, (c) => `\\${c}`)}`)
    .join('\n');

export function debateTranscript(bundle: string, file = 'bundle.jsonl'): string {
  const values = parseJournalText(bundle).records.map((r) => r.value);
  const records = values as Rec[];
  const room = records.find((r) => r.type === 'db8-journal')?.room ?? '(unknown room)';
  const entries = journalEntries(values);
  const genesis = entries.find((e) => e.kind === 'genesis')?.payload as
    | { protocol?: string; config?: unknown }
    | undefined;
  if (genesis?.protocol !== 'debate') throw new Error('not a debate room bundle');
  const config = DebateConfigSchema.parse(genesis.config);
  // Submissions the bundle lets this viewer read: revealed with their round, or sealed ones the
  // viewer may open (its own, or an admin's export). Keyed by the seq of the author's entry.
  const subs = new Map<number, SubmitAction>();
  for (const e of entries) {
    for (const rv of e.reveals ?? []) {
      const a = SubmitActionSchema.safeParse(rv.payload);
      if (a.success) subs.set(rv.seq, a.data);
    }
    const own = SubmitActionSchema.safeParse(e.sealed?.payload ?? e.payload);
    if (own.success) subs.set(e.seq, own.data);
  }
  // The latest version of each debater's submission in each round.
  const latest = new Map<string, { seq: number; a: SubmitAction }>();
  for (const [seq, a] of [...subs.entries()].sort((x, y) => x[0] - y[0]))
    latest.set(`${a.round_id}\u0000${a.author_id}`, { seq, a });
  const rounds = new Map<string, { seq: number; a: SubmitAction }[]>();
  for (const s of [...latest.values()].sort((x, y) => x.seq - y.seq))
    rounds.set(s.a.round_id, [...(rounds.get(s.a.round_id) ?? []), s]);

  const close = entries.find((e) => e.kind === 'close');
  const result = ResultsSchema.safeParse((close?.payload as { result?: unknown } | undefined)?.result);
  const head = records.filter((r) => r.type === 'checkpoint').at(-1);

  const out: string[] = [`# Debate: ${inline(config.topic)}`, ''];
  if (config.tags.length) out.push(`Tags: ${config.tags.map(inline).join(', ')}`, '');
  out.push(
    `Room \`${room}\` · ${config.debaters} debaters · ${config.judges} judges · up to ${config.max_rounds} argument rounds and a final`,
    '',
  );
  const seats = [...new Set([...latest.values()].map((s) => s.a.author_id))].sort();
  if (seats.length) out.push(`Debaters who spoke: ${seats.map((s) => `**${inline(s)}**`).join(', ')}`, '');
  if (rounds.size === 0) out.push('_No submission you may read yet._', '');
  let n = 0;
  for (const [roundId, list] of rounds) {
    n++;
    out.push(`## Round ${n}: ${inline(list[0]!.a.phase)}`, '', `Round id \`${inline(roundId)}\``, '');
    for (const { seq, a } of list) {
      out.push(`### ${inline(a.author_id)}`, '', `_Entry ${seq}_`, '', block(a.content), '');
      out.push('Claims:', '');
      for (const c of a.claims)
        out.push(`- ${inline(c.text)}${c.confidence !== undefined ? ` (confidence ${c.confidence}%)` : ''}`);
      out.push('', 'Citations:', '');
      for (const c of a.citations)
        out.push(
          `- <${c.url.replace(/[<>\s]/g, encodeURIComponent)}>${c.title ? ` ${inline(c.title)}` : ''}`,
        );
      out.push('');
    }
  }
  out.push('## Result', '');
  if (result.success) {
    const r = result.data;
    out.push(`Placed by ${r.placement} over ${r.ballots} final ballot(s), ${r.rounds} round(s).`, '');
    out.push('| place | debater | approvals | Borda | total |', '| --- | --- | --- | --- | --- |');
    for (const p of r.placements)
      out.push(`| ${p.place} | ${inline(p.seat)} | ${p.approvals} | ${p.borda} | ${p.total} |`);
    out.push('', `Round chain head \`${r.chain}\``, '');
  } else out.push('_The debate has not closed: no result yet._', '');
  out.push('---', '');
  out.push(`Room \`${room}\`.`);
  if (head)
    out.push(
      `Signed tree head: size ${head.size}, root \`${head.root_hash}\`:`,
      '',
      '```',
      (head.text ?? '').trimEnd(),
      '```',
    );
  out.push(
    '',
    `This transcript is made from the room's journal bundle as its exporter may see it. To check it, save the bundle (\`db8 export ${room} -o ${file}\`) and run \`db8 verify ${file} --key <the server's key>\`: every entry, the signed tree head above and each revealed submission are checked offline (\`db8 debate verify ${room}\` does both).`,
    '',
  );
  return out.join('\n');
}
