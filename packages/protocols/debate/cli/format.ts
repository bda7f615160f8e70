// Text for debate rooms: status summaries, phase banners, a published round, the results. Pure
// functions of a view (tests and the demo print the same lines).

import { clock, deadlineText } from '@db8/cli/kit';
import type { DebateResult, DebateView, RoundView } from '../rules/index.ts';

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** `round 2 submit · until 12:00:31Z (in 20 s) · submitted 3/5` */
export function phaseBanner(view: DebateView, now: number): string {
  const final = view.rounds[view.round - 1]?.kind === 'final';
  const where = final ? 'final round' : `round ${view.round}`;
  const parts = [`── ${view.phase === 'closed' ? 'closed' : `${where} ${view.phase}`}`];
  if (view.deadline !== null && view.phase !== 'closed')
    parts.push(`until ${deadlineText(view.deadline, now)}`);
  const r = view.rounds[view.round - 1];
  if (r && (view.phase === 'submit' || view.phase === 'final_submit')) {
    const n = r.submissions.filter((s) => s.version > 0).length;
    parts.push(`submitted ${n}/${r.submissions.length}`);
  }
  if (r && (view.phase === 'verify' || view.phase === 'final_verify')) {
    const n = r.submissions.filter((s) => s.status !== 'submitted').length;
    parts.push(`settled ${n}/${r.submissions.length}`);
  }
  if (view.phase === 'published' && r?.continue_vote)
    parts.push(`continue votes ${r.continue_vote.voted.length}/${r.submissions.length}`);
  if (view.phase === 'final_vote') parts.push(`ballots ${view.final_vote.voted.length}`);
  return parts.join(' · ');
}

/** A key that changes whenever the banner should be printed again. */
export function bannerKey(view: DebateView): string {
  return `${view.phase}/${view.round}/${view.deadline ?? ''}`;
}

/** Every line of a published round: each submission with its status, verdicts, signature and text. */
export function roundLines(r: RoundView): string[] {
  const lines = [
    `══ ${r.kind === 'final' ? 'final round' : `round ${r.index}`} (${r.label}) published at ${r.published_at ? clock(r.published_at) : '?'} · chain ${r.chain?.head.slice(0, 16) ?? '-'}`,
  ];
  for (const s of r.submissions) {
    if (s.status === 'forfeit') {
      lines.push(`  ${s.author}: forfeit`);
      continue;
    }
    const sig = s.signature
      ? s.signature.kind === 'server'
        ? 'server-attested'
        : `${s.signature.kind} via ${s.signature.via}`
      : '';
    lines.push(
      `  ${s.author}: ${s.status} v${s.version}${sig ? ` · ${sig}` : ''}${s.canonical_sha256 ? ` · ${s.canonical_sha256.slice(0, 12)}` : ''}`,
    );
    if (s.payload) lines.push(`    ${cut(s.payload.content.replace(/\s+/g, ' '), 160)}`);
    for (const c of s.payload?.claims ?? []) {
      const v = s.verdict?.claims.find((x) => x.claim_id === c.id);
      lines.push(`    [${c.id}] ${cut(c.text, 100)}${v ? ` → ${v.verdict}` : ''}`);
    }
  }
  const cv = r.continue_vote?.tally;
  if (cv) lines.push(`  continue vote: ${cv.continue} continue, ${cv.end} end → ${cv.outcome} (${cv.by})`);
  return lines;
}

/** Placements, scores and (once unmasked) identities; `names` maps identities to display names. */
export function resultLines(res: DebateResult, names: Record<string, string> = {}): string[] {
  const lines = [
    `══ results: "${res.topic}" after ${res.rounds} round(s), ${res.ballots} ballot(s), chain ${res.chain.slice(0, 16)}`,
  ];
  for (const p of res.placements) {
    const sc = res.scores.find((s) => s.seat === p.seat);
    const id = res.identities?.[p.seat];
    const who = id ? ` = ${names[id] ? `${names[id]} (${id})` : id}` : '';
    lines.push(
      `  ${p.place}. ${p.seat}${who} · approvals ${p.approvals} · borda ${p.borda} · total ${p.total}` +
        (sc
          ? ` (rubric ${sc.rubric}, movement ${sc.movement}, concessions ${sc.concessions}, calibration ${sc.calibration})`
          : ''),
    );
  }
  return lines;
}

/** `db8 debate status`: where the room is and what this seat can do. */
export function statusLines(view: DebateView, legal: readonly { type: string }[], now: number): string[] {
  const lines = [
    `debate "${view.config.topic}"${view.config.tags.length ? ` [${view.config.tags.join(', ')}]` : ''}`,
    phaseBanner(view, now),
    `you: ${view.you.seat ? `${view.you.seat} (${view.you.role})` : view.you.role}`,
  ];
  for (const r of view.rounds) {
    const subs = r.submissions
      .map((s) => `${s.author} ${s.status}${s.version > 1 ? ` v${s.version}` : ''}`)
      .join(', ');
    lines.push(`round ${r.index} ${r.label}${r.published_at ? ' (published)' : ''}: ${subs}`);
  }
  const hints: Record<string, string> = {
    submit: 'db8 draft open, then db8 submit (or db8 resubmit)',
    vote_continue: 'db8 vote continue yes|no',
    final_vote: 'db8 vote final --approve anon_2,anon_4 [--rank …]',
    register_key: 'db8 submit --sign <key> registers your key',
  };
  const can = legal.map((l) => l.type).filter((t) => t !== 'draft');
  lines.push(`you may: ${can.length ? can.map((t) => hints[t] ?? t).join(' · ') : 'nothing right now'}`);
  if (view.results) lines.push(...resultLines(view.results));
  return lines;
}
