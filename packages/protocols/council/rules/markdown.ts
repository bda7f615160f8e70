import type { FinalPacket, Usage } from './packet.ts';

/**
 * `final-packet.md`: the human projection of the Final Packet, rendered from the packet object
 * alone (so the JSON is the source and this file can always be regenerated and compared).
 */

function cell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ');
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/** `14 calls · 9,210 input + 3,004 output tokens · $0.0412 (2 calls unpriced)`. */
export function usageLine(u: Usage): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const cost =
    u.costUsd === null
      ? 'cost unknown'
      : `$${u.costUsd.toFixed(4)}${u.unpricedCalls ? ` (${u.unpricedCalls} calls unpriced)` : ''}`;
  return `${n(u.calls)} calls · ${n(u.inputTokens)} input + ${n(u.outputTokens)} output tokens · ${cost}`;
}

export function renderPacketMarkdown(p: FinalPacket): string {
  const out: string[] = [];
  out.push(`# Council decision — ${cell(p.question)}`, '');
  if (p.scripted) {
    out.push(
      '> **SCRIPTED RUN** — roles were played by the scripted provider; this is not model output.',
      '',
    );
  }
  if (p.degradation.degraded) {
    out.push(
      `> **DEGRADED** — ${p.degradation.markers.length} degradation marker(s): this decision rests on less evidence than a full council.`,
      '',
    );
  }
  out.push(`- Run: \`${p.runId}\``, `- Created: ${p.createdAt}`, `- Output type: ${p.outputType}`, '');
  if (p.context) out.push('## Context', '', p.context, '');
  out.push(
    '## Decision',
    '',
    `**${p.decision.verdict}** (source: ${p.decision.source})`,
    '',
    p.decision.summary,
    '',
  );
  out.push('## Rationale', '', p.rationale, '');
  out.push('## Scores', '', '| score | value |', '| --- | --- |');
  const s = p.scores;
  out.push(
    `| consensus | ${pct(s.consensus)} |`,
    `| confidence | ${pct(s.confidence)} |`,
    `| agreement | ${pct(s.agreement)} |`,
    `| support (lean: ${p.lean}) | ${pct(s.support)} |`,
    `| coverage | ${pct(s.coverage)} |`,
    `| evidence | ${pct(s.evidence)} |`,
    `| judge quality | ${s.judgeQuality === null ? 'n/a' : pct(s.judgeQuality)} |`,
    '',
  );
  out.push('## Next actions', '', '| action | owner | due | source |', '| --- | --- | --- | --- |');
  for (const a of p.nextActions)
    out.push(`| ${cell(a.action)} | ${cell(a.owner)} | ${a.due} | ${a.source} |`);
  out.push('', '## Risks', '');
  if (p.risks.length === 0) out.push('None recorded.');
  out.push(
    ...p.risks.map(
      (r) =>
        `- ${cell(r.risk)}${r.severity ? ` (${r.severity})` : ''} — raised by ${r.raisedBy}` +
        (r.mitigation ? `; mitigation: ${cell(r.mitigation)}` : ''),
    ),
  );
  out.push('', '## Degradation', '');
  if (!p.degradation.degraded) out.push('None: every role completed every stage.');
  out.push(
    ...p.degradation.markers.map(
      (m) => `- ${m.stage}${m.role ? ` / ${m.role}` : ''}: \`${m.code}\` — ${cell(m.message)}`,
    ),
  );
  out.push(
    '',
    '## Roles',
    '',
    '| role | provider | model | ok turns | failed turns |',
    '| --- | --- | --- | --- | --- |',
  );
  for (const r of p.roles) {
    const provider = r.scripted ? `${cell(r.provider)} (scripted)` : cell(r.provider);
    out.push(`| ${r.role} | ${provider} | ${cell(r.model)} | ${r.okTurns} | ${r.failedTurns} |`);
  }
  if (p.usage) out.push('', '## Usage', '', usageLine(p.usage));
  out.push('', '## Evidence', '');
  const refs = [p.references.request, ...p.references.rounds, p.references.consensus, p.references.judge];
  out.push(...refs.map((r) => `- \`${r.path}\` — sha256 \`${r.sha256}\``));
  out.push('');
  return out.join('\n');
}
