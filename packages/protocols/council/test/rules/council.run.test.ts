import { canonicalize, commitmentOf, hashCanonical, refoldLog, type StoredEntry } from '@db8/core';
import { describe, expect, it } from 'vitest';
import {
  ARTIFACT_PATHS,
  CouncilStateSchema,
  CouncilViewSchema,
  checkTransitionLog,
  council,
  FinalPacketSchema,
  renderPacketMarkdown,
  roundArtifact,
  STAGES,
  stageArtifacts,
} from '../../rules/index.ts';
import { call, configFor, playFull, Run, T0, verdict } from './harness.ts';

const registry = new Map([[council.name, council]]);

const assessment = {
  positions: [
    { role: 'Proponent', stance: 'support', note: 'clear support' },
    { role: 'Critic', stance: 'conditional', note: 'accepts a pilot' },
  ],
  commonGround: ['a pilot first'],
  disagreements: ['timeline'],
  proposal: 'Run a six-week pilot on one job family.',
};

function complete(run: Run, now: number, opts: { judge?: 'fail' } = {}) {
  run.must('synthesizer', { type: 'assessment', payload: assessment, call }, now + 1000);
  run.tick(now + 2000); // Consensus → Judge
  if (opts.judge === 'fail') {
    run.must(
      'judge',
      {
        type: 'failed',
        stage: 'Judge',
        error: { code: 'invalid_output', message: 'schema-invalid twice' },
        call,
      },
      now + 3000,
    );
  } else {
    run.must('judge', { type: 'verdict', payload: verdict(), call }, now + 3000);
  }
  run.tick(now + 4000); // Judge → Packetize (packet built + validated) → Writeback
  return now + 5000;
}

describe('council: a full run', () => {
  it('the request must seat exactly the five roles in roster order', () => {
    expect(council.configSchema.safeParse(configFor()).success).toBe(true);
    const cfg = configFor() as { roster: { role: string }[] };
    const swapped = [cfg.roster[1], cfg.roster[0], ...cfg.roster.slice(2)];
    expect(council.configSchema.safeParse({ ...cfg, roster: swapped }).success).toBe(false);
    expect(council.configSchema.safeParse({ ...cfg, roster: cfg.roster.slice(0, 4) }).success).toBe(false);
    const sixth = [...cfg.roster, { role: 'Judge', provider: 'x', model: 'y', scripted: false }];
    expect(council.configSchema.safeParse({ ...cfg, roster: sixth }).success).toBe(false);
    expect(council.seats(council.configSchema.parse(cfg)).map((s) => s.id)).toEqual([
      'proponent',
      'critic',
      'analyst',
      'synthesizer',
      'judge',
      'operator',
    ]);
  });

  it('walks the eight states in order and logs every transition', () => {
    const run = new Run();
    const { now } = playFull(run);
    const at = complete(run, now);
    expect(run.state.stage).toBe('Writeback');
    const sha = run.state.packetSha256!;
    expect(sha).toBe(hashCanonical(run.state.packet));
    run.must(
      'operator',
      { type: 'writeback', recordPath: 'records/decisions/run_test_1.json', packetSha256: sha },
      at,
    );
    expect(council.isOver(run.state)).toBe(true);
    expect(council.result(run.state)).toEqual({
      status: 'completed',
      runId: 'run_test_1',
      packetSha256: sha,
      recordPath: 'records/decisions/run_test_1.json',
      abort: null,
    });
    const path = run.state.transitions.map((t) => t.to);
    expect(path).toEqual([...STAGES, null]);
    expect(run.state.transitions.map((t) => t.status)).toEqual([...STAGES.map(() => 'ok'), 'completed']);
    expect(checkTransitionLog(run.state.transitions)).toEqual({ ok: true });
    expect(run.state.transitions.every((t, i, a) => i === 0 || t.at >= a[i - 1]!.at)).toBe(true);
    expect(CouncilStateSchema.safeParse(run.state).success).toBe(true);
    expect(council.deadline(run.state)).toBeNull();
  });

  it('a run made before usage was reported folds to the packet it had; a new one adds its usage', () => {
    const before = new Run(configFor());
    complete(before, playFull(before).now);
    expect(FinalPacketSchema.parse(before.state.packet).usage).toBeUndefined();
    const after = new Run(configFor({ usageInPacket: true }));
    complete(after, playFull(after).now);
    const usage = FinalPacketSchema.parse(after.state.packet).usage!;
    // 17 turns, each recorded with the harness's call (its tokens and cost), all priced.
    expect(usage.calls).toBe(17);
    expect(usage.inputTokens).toBe(17 * call.inputTokens);
    expect(usage.unpricedCalls).toBe(0);
    expect({ ...after.state.packet, usage: undefined }).toEqual({ ...before.state.packet, usage: undefined });
  });

  it('builds a valid packet whose references hash the artifacts, and markdown from the same object', () => {
    const run = new Run();
    const { now } = playFull(run);
    complete(run, now);
    const packet = FinalPacketSchema.parse(run.state.packet);
    expect(packet.decision).toEqual({
      summary: verdict().decision,
      verdict: 'adopt_with_conditions',
      source: 'Judge',
    });
    expect(packet.nextActions).toEqual([{ ...verdict().nextActions[0], source: 'Judge' }]);
    expect(packet.degradation).toEqual({ degraded: false, markers: [] });
    expect(packet.scripted).toBe(true);
    expect(packet.roles.map((r) => [r.role, r.okTurns, r.failedTurns])).toEqual([
      ['Proponent', 3, 0],
      ['Critic', 3, 0],
      ['Analyst', 3, 0],
      ['Synthesizer', 4, 0],
      ['Judge', 4, 0],
    ]);
    const artifacts = stageArtifacts(run.state);
    expect(packet.references.rounds.map((r) => r.path)).toEqual([...ARTIFACT_PATHS.rounds]);
    for (const ref of [
      packet.references.request,
      ...packet.references.rounds,
      packet.references.consensus,
      packet.references.judge,
    ]) {
      expect(ref.sha256, ref.path).toBe(hashCanonical(artifacts[ref.path]));
    }
    // Risks: the judge's first (with mitigation), then each role's round-1 risks.
    expect(packet.risks[0]).toEqual({
      risk: 'Dual running cost',
      severity: null,
      mitigation: 'Time-box the pilot to six weeks',
      raisedBy: 'Judge',
    });
    expect(packet.risks.map((r) => r.raisedBy)).toEqual([
      'Judge',
      'Proponent',
      'Critic',
      'Analyst',
      'Synthesizer',
      'Judge',
    ]);
    const md = renderPacketMarkdown(packet);
    expect(md).toContain('SCRIPTED RUN');
    expect(md).not.toContain('DEGRADED');
    expect(md).toContain(`| Pick the pilot job family | operator | 2026-02-01 | Judge |`);
    expect(md).toContain(packet.references.judge.sha256);
    expect(renderPacketMarkdown(JSON.parse(JSON.stringify(packet)))).toBe(md);
  });

  it('a round artifact lists each role in roster order with the payload hash', () => {
    const run = new Run();
    playFull(run);
    const r2 = roundArtifact(run.state, 2);
    expect(r2.turns.map((t) => t.role)).toEqual(['Proponent', 'Critic', 'Analyst', 'Synthesizer', 'Judge']);
    expect(r2.challengeMap).toEqual({
      Proponent: 'Critic',
      Critic: 'Proponent',
      Analyst: 'Proponent',
      Synthesizer: 'Critic',
      Judge: 'Synthesizer',
    });
    expect(r2.turns[0]!.payloadSha256).toBe(hashCanonical(r2.turns[0]!.payload));
    expect(r2.openedAt).toBe(new Date(T0 + 7000).toISOString());
    expect(roundArtifact(run.state, 1).challengeMap).toBeNull();
  });

  it('refolding the recorded entries reproduces the final state exactly (core refoldLog)', () => {
    const run = new Run();
    const { now } = playFull(run, { Critic: { r2: 'fail' } });
    const at = complete(run, now);
    run.must(
      'operator',
      { type: 'writeback', recordPath: 'r.json', packetSha256: run.state.packetSha256! },
      at,
    );
    expect(run.closed).toBe(true); // completed: the close entry reveals the seed and the result
    const again = refoldLog(JSON.parse(JSON.stringify(run.entries)), registry);
    expect(again).toMatchObject({ ok: true, closed: true, problems: [] });
    expect(canonicalize(again.state)).toBe(canonicalize(run.state));
    expect(again.stateHash).toBe(run.stateHash());
  });

  it('refold reports a tampered entry instead of repairing it', () => {
    const run = new Run();
    const { now } = playFull(run);
    const at = complete(run, now);
    run.must(
      'operator',
      { type: 'writeback', recordPath: 'r.json', packetSha256: run.state.packetSha256! },
      at,
    );
    const entries = JSON.parse(JSON.stringify(run.entries)) as StoredEntry[];
    // Re-target a round-2 challenge: the protocol refuses it on refold. Round turns are sealed, so
    // the sealed payload is what the fold reads.
    const entry = entries.find((e) => (e.sealed?.payload as { type?: string })?.type === 'challenge')!;
    (entry.sealed!.payload as { payload: { target: string } }).payload.target = 'Analyst';
    const r = refoldLog(entries, registry);
    expect(r).toMatchObject({ ok: false, firstDivergence: entry.seq });
    expect(r.problems.join('\n')).toMatch(/sealed payload does not match its commitment/);
    // An edited payload whose commitment is made to match still changes the packet: the close entry's
    // result (and the writeback's packet hash) no longer follow from the log.
    const edited = JSON.parse(JSON.stringify(run.entries)) as StoredEntry[];
    const opening = edited.find((e) => (e.sealed?.payload as { type?: string })?.type === 'opening')!;
    (opening.sealed!.payload as { payload: { claim: string } }).payload.claim = 'edited';
    opening.commit = commitmentOf(opening.sealed!);
    const r2 = refoldLog(edited, registry);
    expect(r2.ok).toBe(false);
    expect(r2.stateHash).not.toBe(run.stateHash());
  });

  it('views parse, and round turns stay sealed to their author until the round closes', () => {
    const run = new Run();
    run.tick(T0 + 1);
    run.must(
      'proponent',
      {
        type: 'opening',
        payload: { claim: 'secret plan', rationale: 'r', risks: [], stance: 'support', confidence: 0.9 },
        call,
      },
      T0 + 2,
    );
    const t = run.state.turns[0]!;
    expect(
      run.act(
        'critic',
        {
          type: 'opening',
          payload: { claim: 'c', rationale: 'r', risks: [], stance: 'oppose', confidence: 0.5 },
          call,
        },
        T0 + 3,
      ),
    ).toMatchObject({
      ok: true,
      visibility: { kind: 'seat', seat: 'critic' },
    });
    for (const viewer of [
      { kind: 'observer' },
      { kind: 'seat', seat: 'critic' },
      { kind: 'seat', seat: 'operator' },
    ] as const) {
      const v = CouncilViewSchema.parse(run.view(viewer));
      expect(v.turns[0]).toEqual({
        kind: 'sealed',
        role: 'Proponent',
        seq: t.seq,
        at: t.at,
        stage: 'Round1',
      });
      expect(JSON.stringify(v)).not.toContain('secret plan');
    }
    expect(JSON.stringify(run.view({ kind: 'seat', seat: 'proponent' }))).toContain('secret plan');
    expect(JSON.stringify(run.view({ kind: 'admin' }))).toContain('secret plan');
    // The stage deadline closes the round; the tick reveals exactly the two sealed entries.
    expect(run.tick(T0 + 1 + 60_000 - 1)).toBeNull();
    const closing = run.tick(T0 + 1 + 60_000)!;
    expect(closing.reveal).toEqual([2, 3]);
    expect(closing.milestone).toBe('round-1');
    expect(JSON.stringify(run.view({ kind: 'observer' }))).toContain('secret plan');
    expect(council.legal(run.state, 'critic').actions).toEqual([
      { type: 'challenge', target: 'Proponent' },
      { type: 'failed', stage: 'Round2' },
    ]);
    expect(council.legal(run.state, 'operator').actions).toEqual([{ type: 'abort' }]);
  });
});

describe('council: degraded completion', () => {
  it('a role that fails is marked, the run goes on with less evidence, and the packet says so', () => {
    const run = new Run();
    const { now } = playFull(run, { Analyst: { r1: 'fail', r3: 'fail' } });
    const at = complete(run, now);
    const packet = FinalPacketSchema.parse(run.state.packet);
    expect(packet.degradation.degraded).toBe(true);
    expect(packet.degradation.markers).toEqual([
      { stage: 'Round1', role: 'Analyst', code: 'timeout', message: 'model call timed out' },
      { stage: 'Round3', role: 'Analyst', code: 'timeout', message: 'model call timed out' },
    ]);
    expect(packet.scores.coverage).toBe(0.8);
    expect(packet.scores.evidence).toBe(0.875);
    expect(packet.roles.find((r) => r.role === 'Analyst')).toMatchObject({ okTurns: 1, failedTurns: 2 });
    expect(run.state.transitions.find((t) => t.from === 'Round1')).toMatchObject({
      status: 'degraded',
      detail: 'failed: Analyst',
    });
    expect(renderPacketMarkdown(packet)).toContain('DEGRADED');
    run.must(
      'operator',
      { type: 'writeback', recordPath: 'r.json', packetSha256: run.state.packetSha256! },
      at,
    );
    expect(run.state.status).toBe('completed');
  });

  it('roles that never answer time out at the stage deadline', () => {
    const run = new Run();
    run.tick(T0 + 1);
    run.must(
      'proponent',
      {
        type: 'opening',
        payload: { claim: 'c', rationale: 'r', risks: [], stance: 'support', confidence: 0.9 },
        call,
      },
      T0 + 2,
    );
    run.tick(T0 + 1 + 60_000);
    const failed = run.state.turns.filter((t) => t.kind === 'failed');
    expect(failed.map((t) => t.role)).toEqual(['Critic', 'Analyst', 'Synthesizer', 'Judge']);
    expect(failed.every((t) => t.kind === 'failed' && t.error.code === 'STAGE_TIMEOUT')).toBe(true);
    expect(run.state.stage).toBe('Round2');
    // Late input after the deadline is refused, not accepted.
    const late = new Run();
    late.tick(T0 + 1);
    expect(
      late.act(
        'critic',
        { type: 'failed', stage: 'Round1', error: { code: 'x', message: '' }, call: null },
        T0 + 1 + 60_000,
      ),
    ).toMatchObject({
      ok: false,
      error: { code: 'STAGE_EXPIRED' },
    });
  });

  it('without a verdict the packet carries the Synthesizer proposal, a protocol action and NO_VERDICT', () => {
    const run = new Run();
    const { now } = playFull(run);
    complete(run, now, { judge: 'fail' });
    const packet = FinalPacketSchema.parse(run.state.packet);
    expect(packet.decision).toEqual({
      summary: assessment.proposal,
      verdict: 'undecided',
      source: 'Synthesizer',
    });
    expect(packet.rationale).toContain('invalid_output: schema-invalid twice');
    expect(packet.nextActions).toEqual([
      {
        action: 'Decide manually or re-run the council: the Judge gave no verdict.',
        owner: 'operator',
        due: '2026-01-22',
        source: 'protocol',
      },
    ]);
    expect(packet.scores.judgeQuality).toBeNull();
    expect(packet.scores.confidence).toBe(
      Math.round(run.state.consensus!.confidence * 0.5 * 10_000) / 10_000,
    );
    expect(packet.degradation.markers.map((m) => m.code)).toEqual(['invalid_output', 'NO_VERDICT']);
  });

  it('a run where every call fails still completes with an undecided, fully marked packet', () => {
    const run = new Run();
    run.tick(T0 + 1);
    for (let i = 0; i < 5; i++) run.tick(T0 + 1 + 60_000 * (i + 1)); // every stage times out
    expect(run.state.stage).toBe('Writeback');
    expect(run.state.transitions.slice(-2).map((t) => [t.to, t.seq])).toEqual([
      ['Packetize', 6],
      ['Writeback', 6],
    ]);
    const packet = FinalPacketSchema.parse(run.state.packet);
    expect(packet.decision.source).toBe('none');
    expect(packet.scores).toEqual({
      consensus: 0,
      confidence: 0,
      agreement: 0,
      support: 0,
      coverage: 0,
      evidence: 0,
      judgeQuality: null,
    });
    expect(packet.lean).toBe('none');
    expect(packet.degradation.markers).toHaveLength(5 * 3 + 1 + 2 + 1 + 1);
  });

  it('a missing writeback aborts at its deadline; an operator abort ends the run anywhere', () => {
    const run = new Run();
    const { now } = playFull(run);
    const at = complete(run, now);
    const deadline = council.deadline(run.state)!;
    expect(deadline).toBe(at - 1000 + 60_000);
    run.tick(deadline);
    expect(run.state.status).toBe('aborted');
    expect(run.state.abort?.error.code).toBe('WRITEBACK_TIMEOUT');
    expect(run.state.transitions.at(-1)).toMatchObject({ from: 'Writeback', to: null, status: 'aborted' });

    const r2 = new Run();
    r2.tick(T0 + 1);
    r2.must(
      'operator',
      { type: 'abort', error: { code: 'STORAGE_UNAVAILABLE', message: 'disk full' } },
      T0 + 2,
    );
    expect(council.result(r2.state)).toMatchObject({
      status: 'aborted',
      abort: { code: 'STORAGE_UNAVAILABLE' },
    });
    expect(checkTransitionLog(r2.state.transitions)).toEqual({ ok: true });
  });
});
