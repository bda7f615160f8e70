import { type EntryProofVerdict as Verdict, verifyEntryProof as verifyEntry } from '@db8/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Badge } from '../components/Badge.tsx';
import { EntryRow } from '../components/EntryRow.tsx';
import { Inspector, type InspectStep } from '../components/Inspector.tsx';
import { api } from '../lib/api.ts';
import { errorText, useRoomInfo } from '../lib/query.ts';
import { webKeys } from '../lib/query-keys.ts';
import { revealIndex } from '../lib/reveals.ts';
import { Link, useNavigate, useSearchParams } from '../lib/router.tsx';
import { fetchServerKey } from '../lib/server-key.ts';
import type { Entry, Proof } from '../lib/types.ts';

// The journal: the room's log page by page, each entry with a badge saying whether this browser
// could recompute its leaf hash, follow the served inclusion proof to the checkpoint's root, and
// check the checkpoint's signature with the server's published note key. Beside it, the inspector
// (components/Inspector.tsx): the log refolded here, stepped entry by entry, started on request (`?inspect` opens it at the head, `?seq=N` at N).

const PAGE = 25;

type Check = Verdict | 'pending';

/** Runs at most `n` of the calls at once: a long page's proofs must not flood the server. */
function concurrencyLimit(n: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async <T,>(call: () => Promise<T>): Promise<T> => {
    if (running >= n) await new Promise<void>((go) => waiting.push(go));
    running++;
    try {
      return await call();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
const proofSlot = concurrencyLimit(4);

function checkOf(entry: Entry, proof: { data?: Proof; error: Error | null }, verifier: Verifier): Check {
  if (proof.error) return { ok: false, reason: `no proof: ${errorText(proof.error)}` };
  if (!proof.data || verifier === undefined) return 'pending';
  try {
    return verifyEntry(entry as never, proof.data, verifier);
  } catch (err) {
    return { ok: false, reason: `no proof: ${(err as Error).message}` };
  }
}
type Verifier = Parameters<typeof verifyEntry>[2] | undefined;

function VerifyBadge(props: { check: Check | undefined }) {
  const c = props.check;
  if (c === undefined || c === 'pending') return <Badge tone="info">checking…</Badge>;
  if (c.ok) {
    const title = `leaf ${c.leafHash}\nincluded in ${c.origin} at size ${c.treeSize}\nroot ${c.root}`;
    if (c.signedBy === null) {
      return (
        <Badge
          tone="warn"
          testId="included"
          title={`${title}\ncheckpoint signature not checked: no server key`}
        >
          ✓ included · signature unchecked
        </Badge>
      );
    }
    return (
      <Badge tone="ok" testId="verified" title={`${title}\ncheckpoint signed by ${c.signedBy}`}>
        ✓ verified
      </Badge>
    );
  }
  return (
    <Badge tone="bad" testId="unverified" title={c.reason}>
      ✗ {c.reason}
    </Badge>
  );
}

function fromParam(q: Record<string, string>): number {
  const n = Number(q.from ?? '0');
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
}

/** The inspector's first step: `?seq=N`, the head with `?inspect`, else not started. */
function seqParam(q: Record<string, string>): InspectStep {
  const raw = q.seq ?? null;
  const n = raw === null ? Number.NaN : Number(raw);
  if (Number.isSafeInteger(n) && n >= 0) return n;
  return 'inspect' in q ? 'head' : null;
}

export function Journal(props: { roomId: string }) {
  const { roomId } = props;
  const navigate = useNavigate();
  const search = useSearchParams();
  const from = fromParam(search);
  // The page of the log, the room's height and the server's key; then each entry's proof, a few at a
  // time. No read here is refreshed by a feed: the journal checks the log as it was when opened.
  const page = useQuery({
    queryKey: webKeys.journal(roomId, from),
    queryFn: () => api.entries(roomId, from, PAGE),
  });
  const entries = page.data?.entries ?? null;
  const next = page.data ? page.data.next_seq : null;
  const serverKey = useQuery({
    queryKey: webKeys.serverKey(),
    queryFn: () => fetchServerKey(),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const key = serverKey.isPending ? 'pending' : (serverKey.data ?? null);
  /** The log's length (head seq + 1), so the summary can say which part of it this page checked. */
  const room = useRoomInfo(roomId);
  const total = room.data ? room.data.seq + 1 : null;
  /** The room's protocol, so its web module can put entries in words. */
  const protocol = room.data?.protocol;
  const proofs = useQueries({
    queries: (entries ?? []).map((e) => ({
      queryKey: webKeys.proof(roomId, e.seq),
      queryFn: () => proofSlot(() => api.proof(roomId, e.seq)),
      staleTime: Number.POSITIVE_INFINITY,
    })),
  });
  const verifier: Verifier = key === 'pending' ? undefined : (key?.verifier ?? null);
  const checks: Record<number, Check> = Object.fromEntries(
    (entries ?? []).map((e, i) => [e.seq, checkOf(e, proofs[i] ?? { error: null }, verifier)]),
  );
  const error = page.error ? errorText(page.error) : null;
  const base = `/rooms/${encodeURIComponent(roomId)}/journal`;
  const [step, setStep] = useState<InspectStep>(() => seqParam(search));

  const reveals = useMemo(() => revealIndex(entries ?? []), [entries]);
  const values = Object.values(checks);
  // "Verified" means all three checks: leaf, inclusion, and the checkpoint's signature.
  const verified = values.filter((c) => c !== 'pending' && c.ok && c.signedBy !== null).length;
  const failed = values.filter((c) => c !== 'pending' && !c.ok).length;

  return (
    <div className="journal">
      <p className="crumbs small">
        <Link to="/">Rooms</Link> / <Link to={`/rooms/${encodeURIComponent(roomId)}`}>{roomId}</Link> /
        journal
      </p>
      <div className="journal-grid">
        <Inspector roomId={roomId} step={step} onStep={setStep} />
        <section className="card journal-log" aria-labelledby="journal-h">
          <header className="card-head">
            <h1 id="journal-h">Journal</h1>
            <p className="small" role="status" data-testid="journal-summary">
              {entries === null
                ? 'loading…'
                : pageSummary({ verified, failed, entries: entries.map((e) => e.seq), total })}
            </p>
          </header>
          <p className="muted small">
            Each leaf hash is recomputed here from the entry's public form (RFC 8785 canonical JSON, RFC 6962
            leaf) and checked against the server's inclusion proof and its signed checkpoint (C2SP note).
          </p>
          <p className="small" data-testid="server-key">
            {key === 'pending' ? (
              <span className="muted">Fetching the server's checkpoint key…</span>
            ) : key ? (
              <>
                Checkpoints checked against the server key{' '}
                <code className="vkey" title={key.vkey}>
                  {key.vkey}
                </code>
                . Compare it with the key your operator publishes.
              </>
            ) : (
              <span className="error">
                The server's checkpoint key is unavailable: signatures are not checked.
              </span>
            )}
          </p>
          {error ? (
            <p className="error" role="alert">
              {error}
            </p>
          ) : null}
          <ol className="entries">
            {entries?.map((e) => (
              <EntryRow
                key={e.seq}
                entry={e}
                revealed={reveals.get(e.seq)}
                protocol={protocol}
                inspected={e.seq === step}
                extra={
                  <>
                    <VerifyBadge check={checks[e.seq]} />{' '}
                    <button
                      type="button"
                      className="chip"
                      aria-label={`inspect entry ${e.seq}`}
                      onClick={() => setStep(e.seq)}
                    >
                      inspect
                    </button>
                  </>
                }
              />
            ))}
          </ol>
          <nav className="pager" aria-label="journal pages">
            <button
              type="button"
              disabled={from === 0}
              onClick={() => navigate({ to: base, search: { from: String(Math.max(0, from - PAGE)) } })}
            >
              ← Earlier
            </button>
            <span className="small muted">
              entries {from}–{entries && entries.length > 0 ? entries[entries.length - 1]!.seq : from}
            </span>
            <button
              type="button"
              disabled={next === null}
              onClick={() => navigate({ to: base, search: { from: String(next) } })}
            >
              Later →
            </button>
          </nav>
        </section>
      </div>
    </div>
  );
}

/** "25 of 25 entries on this page verified (entries 0–24 of 92) in this browser". */
export function pageSummary(p: {
  verified: number;
  failed: number;
  entries: number[];
  total: number | null;
}): string {
  const n = p.entries.length;
  if (n === 0) return 'no entries on this page';
  const range = `entries ${p.entries[0]}–${p.entries[n - 1]}${p.total !== null ? ` of ${p.total}` : ''}`;
  const failed = p.failed ? `, ${p.failed} failed` : '';
  return `${p.verified} of ${n} entries on this page verified${failed} (${range}) in this browser`;
}
