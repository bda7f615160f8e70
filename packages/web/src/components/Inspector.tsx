import {
  type AnyProtocol,
  canonicalize,
  createProtocolRegistry,
  type RefoldReport,
  refoldLog,
  type StoredEntry,
  type Viewer,
} from '@db8/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { api } from '../lib/api.ts';
import { errorText } from '../lib/query.ts';
import { webKeys } from '../lib/query-keys.ts';
import { revealIndex } from '../lib/reveals.ts';
import type { Entry } from '../lib/types.ts';
import { installedProtocols } from '../protocols/registry.ts';
import { Badge } from './Badge.tsx';
import { EntryRow } from './EntryRow.tsx';
import { JsonView } from './JsonView.tsx';

// The room inspector (boardgame.io's debug panel is the model): the log refolded in this browser by
// core's refoldLog — the fold `db8 verify` runs — keeping the state after every entry, so one can
// step through the room and see the state and each viewer's view at any seq, with the entry that
// made it. It folds only the entries the server served this browser: an admin's carry sealed
// payloads; anyone else's stop the refold at the first entry sealed from them, never guessing.

const PAGE = 1000;
const MAX_ENTRIES = 20_000;

type Lens = { id: string; label: string; viewer: Viewer | null };

interface Folded {
  entries: Entry[];
  /** The state after each folded entry, by seq (0 … report.seq). */
  states: unknown[];
  report: RefoldReport;
  protocol: AnyProtocol | undefined;
  seats: string[];
  viewer: Viewer;
  truncated: boolean;
}

async function loadAll(roomId: string): Promise<{ entries: Entry[]; truncated: boolean }> {
  const entries: Entry[] = [];
  for (let from = 0; entries.length < MAX_ENTRIES; ) {
    const page = await api.entries(roomId, from, PAGE);
    entries.push(...page.entries);
    if (page.next_seq === null) return { entries, truncated: false };
    from = page.next_seq;
  }
  return { entries, truncated: true };
}

function fold(entries: Entry[], viewer: Viewer, truncated: boolean): Folded {
  const states: unknown[] = [];
  const registry = createProtocolRegistry(installedProtocols());
  const { state: _last, ...report } = refoldLog(entries as unknown as StoredEntry[], registry, {
    standInSeed: true,
    onStep: (e, state) => {
      states[e.seq] = state;
    },
  });
  const genesis = entries[0]?.payload as { seats?: Array<{ id: string }> } | undefined;
  return {
    entries,
    states,
    report,
    protocol: report.protocol ? registry.get(report.protocol) : undefined,
    seats: genesis?.seats?.map((s) => s.id) ?? [],
    viewer,
    truncated,
  };
}

/** What this browser may look through: an admin every viewer and the state; others what they are. */
function lensesFor(viewer: Viewer, seats: string[]): Lens[] {
  const seat = (id: string): Lens => ({
    id: `seat:${id}`,
    label: `seat ${id}`,
    viewer: { kind: 'seat', seat: id },
  });
  const observer: Lens = { id: 'observer', label: 'observer', viewer: { kind: 'observer' } };
  if (viewer.kind === 'admin')
    return [
      { id: 'state', label: 'state', viewer: null },
      observer,
      { id: 'admin', label: 'admin', viewer: { kind: 'admin' } },
      ...seats.map(seat),
    ];
  return viewer.kind === 'seat' ? [seat(viewer.seat), observer] : [observer];
}

function look(p: AnyProtocol | undefined, state: unknown, lens: Lens): unknown {
  if (!lens.viewer || !p) return state;
  try {
    return p.view(state, lens.viewer);
  } catch (err) {
    return { error: `view threw: ${(err as Error).message}` };
  }
}

/** The top-level fields whose value differs between two renderings (all of them when not objects). */
function changedKeys(before: unknown, after: unknown): Set<string> {
  const obj = (v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  const a = obj(before);
  const b = obj(after);
  if (!b) return new Set();
  const same = (x: unknown, y: unknown) => {
    try {
      return canonicalize(x as never) === canonicalize(y as never);
    } catch {
      return x === y;
    }
  };
  return new Set(Object.keys(b).filter((k) => !a || !same(a[k], b[k])));
}

/** Where the inspector is: a seq, the head, or not started (it loads the whole log, so on request). */
export type InspectStep = number | 'head' | null;

export function Inspector(props: { roomId: string; step: InspectStep; onStep: (seq: InspectStep) => void }) {
  const { roomId, step, onStep } = props;
  const active = step !== null;
  const [lensId, setLensId] = useState<string | null>(null);
  // Read and refolded when the inspector starts, and again on Reload; a snapshot, like the journal.
  const read = useQuery({
    queryKey: webKeys.inspector(roomId),
    queryFn: async () => {
      const [{ entries, truncated }, state] = await Promise.all([loadAll(roomId), api.state(roomId)]);
      const v = state.viewer;
      const viewer: Viewer =
        v.kind === 'seat' && v.seat
          ? { kind: 'seat', seat: v.seat }
          : { kind: v.kind === 'admin' ? 'admin' : 'observer' };
      return fold(entries, viewer, truncated);
    },
    enabled: active,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const folded = read.isFetching ? null : (read.data ?? null);
  const error = read.error ? errorText(read.error) : null;

  const last = folded ? folded.report.seq : -1;
  const at = typeof step !== 'number' || step > last ? last : Math.max(0, step);
  // The page marks the step's row in its log too: tell it where "the head" (no ?seq=) is.
  useEffect(() => {
    if (at >= 0 && at !== step) onStep(at);
  }, [at, step, onStep]);
  const lenses = folded ? lensesFor(folded.viewer, folded.seats) : [];
  const lens = lenses.find((l) => l.id === lensId) ?? lenses[0];
  const reveals = useMemo(() => revealIndex(folded?.entries ?? []), [folded]);

  const shown = useMemo(() => {
    if (!folded || !lens || at < 0) return null;
    const now = look(folded.protocol, folded.states[at], lens);
    const before = at > 0 ? look(folded.protocol, folded.states[at - 1], lens) : undefined;
    return { value: now, changed: changedKeys(before, now) };
  }, [folded, lens, at]);

  if (!active) {
    return (
      <section className="card inspector" aria-labelledby="inspector-h">
        <header className="card-head">
          <h2 id="inspector-h">Inspector</h2>
          <button type="button" className="primary" onClick={() => onStep('head')}>
            Inspect
          </button>
        </header>
        <p className="muted small">
          Refold this room's log here, with the fold <code>db8 verify</code> runs, and step through it entry
          by entry: the state and each view you may see at every seq.
        </p>
      </section>
    );
  }
  if (error) {
    return (
      <section className="card inspector" aria-labelledby="inspector-h">
        <h2 id="inspector-h">Inspector</h2>
        <p className="error" role="alert">
          {error}
        </p>
      </section>
    );
  }
  if (!folded) {
    return (
      <section className="card inspector" aria-labelledby="inspector-h">
        <h2 id="inspector-h">Inspector</h2>
        <p className="muted">Refolding the log…</p>
      </section>
    );
  }
  const { report, entries } = folded;
  const entry = entries.find((e) => e.seq === at);
  const head = entries.at(-1)?.seq ?? -1;
  return (
    <section className="card inspector" aria-labelledby="inspector-h" data-testid="inspector">
      <header className="card-head">
        <h2 id="inspector-h">Inspector</h2>
        <p className="small" data-testid="inspector-summary">
          {report.seq >= 0 ? `refolded in this browser to seq ${report.seq} of ${head}` : 'nothing refolded'}
          {report.problems.length === 0 && !report.skipped && report.seq >= 0 ? (
            <>
              {' '}
              <Badge tone="ok">✓ {report.closed ? 'result follows' : 'folds cleanly'}</Badge>
            </>
          ) : null}
        </p>
      </header>
      <p className="muted small">
        Each state is core's fold of the entries this server gave you (the fold <code>db8 verify</code> runs)
        {folded.viewer.kind === 'admin' ? ', sealed payloads included' : ': nothing sealed from you'}.
      </p>
      {report.skipped ? (
        <p className="small" data-testid="inspector-stopped">
          <Badge tone="warn">stopped</Badge> {report.skipped}
        </p>
      ) : null}
      {report.problems.map((p) => (
        <p key={p} className="error small" role="alert">
          {p}
        </p>
      ))}
      {folded.truncated ? (
        <p className="small muted">Only the first {MAX_ENTRIES} entries were loaded.</p>
      ) : null}
      {at >= 0 ? (
        <>
          <fieldset className="stepper">
            <legend className="sr-only">step through the log</legend>
            <button type="button" aria-label="first entry" disabled={at <= 0} onClick={() => onStep(0)}>
              «
            </button>
            <button
              type="button"
              aria-label="previous entry"
              disabled={at <= 0}
              onClick={() => onStep(at - 1)}
            >
              ◀
            </button>
            <input
              type="range"
              min={0}
              max={last}
              value={at}
              aria-label="seq"
              onChange={(e) => onStep(Number(e.target.value))}
            />
            <button
              type="button"
              aria-label="next entry"
              disabled={at >= last}
              onClick={() => onStep(at + 1)}
            >
              ▶
            </button>
            <button type="button" aria-label="last entry" disabled={at >= last} onClick={() => onStep(last)}>
              »
            </button>
            <span className="mono small" data-testid="inspector-seq">
              seq {at} / {last}
            </span>
            <button type="button" className="ghost small" onClick={() => void read.refetch()}>
              Reload
            </button>
          </fieldset>
          {entry ? (
            <ol className="entries inspected" aria-label="the entry that made this state">
              <EntryRow
                entry={entry}
                revealed={reveals.get(entry.seq)}
                protocol={report.protocol ?? undefined}
              />
            </ol>
          ) : null}
          <div className="lenses" role="tablist" aria-label="look as">
            {lenses.map((l) => (
              <button
                key={l.id}
                type="button"
                role="tab"
                aria-selected={l.id === lens?.id}
                className={l.id === lens?.id ? 'chip selected' : 'chip'}
                onClick={() => setLensId(l.id)}
              >
                {l.label}
              </button>
            ))}
          </div>
          {shown ? (
            <>
              <p className="small muted" data-testid="inspector-changed">
                {at === 0
                  ? 'the genesis entry set this up'
                  : shown.changed.size === 0
                    ? `entry #${at} changed nothing in this ${lens?.viewer ? 'view' : 'state'}`
                    : `entry #${at} changed: ${[...shown.changed].join(', ')}`}
              </p>
              <JsonView value={shown.value} changed={shown.changed} testId="inspector-json" />
            </>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
