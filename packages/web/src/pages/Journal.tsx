import { type EntryProofVerdict as Verdict, verifyEntryProof as verifyEntry } from '@db8/core';
import { useEffect, useMemo, useState } from 'react';
import { Badge } from '../components/Badge.tsx';
import { EntryRow } from '../components/EntryRow.tsx';
import { Inspector, type InspectStep } from '../components/Inspector.tsx';
import { api } from '../lib/api.ts';
import { revealIndex } from '../lib/reveals.ts';
import { Link, useNavigate, useSearchParams } from '../lib/router.tsx';
import { fetchServerKey, type ServerKeyInfo } from '../lib/server-key.ts';
import type { Entry } from '../lib/types.ts';

// The journal: the room's log page by page, each entry with a badge saying whether this browser
// could recompute its leaf hash, follow the served inclusion proof to the checkpoint's root, and
// check the checkpoint's signature with the server's published note key. Beside it, the inspector
// (components/Inspector.tsx): the log refolded here, stepped entry by entry, started on request (`?inspect` opens it at the head, `?seq=N` at N).

const PAGE = 25;

type Check = Verdict | 'pending';

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
  const [entries, setEntries] = useState<Entry[] | null>(null);
  const [next, setNext] = useState<number | null>(null);
  const [checks, setChecks] = useState<Record<number, Check>>({});
  const [error, setError] = useState<string | null>(null);
  const [key, setKey] = useState<ServerKeyInfo | null | 'pending'>('pending');
  /** The log's length (head seq + 1), so the summary can say which part of it this page checked. */
  const [total, setTotal] = useState<number | null>(null);
  /** The room's protocol, so its web module can put entries in words. */
  const [protocol, setProtocol] = useState<string | undefined>(undefined);
  const base = `/rooms/${encodeURIComponent(roomId)}/journal`;
  const [step, setStep] = useState<InspectStep>(() => seqParam(search));

  useEffect(() => {
    let cancelled = false;
    setEntries(null);
    setChecks({});
    (async () => {
      try {
        const [page, serverKey, room] = await Promise.all([
          api.entries(roomId, from, PAGE),
          fetchServerKey(roomId).catch(() => null),
          api.getRoom(roomId).catch(() => null),
        ]);
        if (room) {
          setTotal(room.seq + 1);
          setProtocol(room.protocol);
        }
        const verifier = serverKey?.verifier ?? null;
        setKey(serverKey);
        if (cancelled) return;
        setEntries(page.entries);
        setNext(page.next_seq);
        setError(null);
        setChecks(Object.fromEntries(page.entries.map((e) => [e.seq, 'pending' as const])));
        // Proofs are fetched a few at a time so a long page does not flood the server.
        const queue = [...page.entries];
        const worker = async () => {
          for (let e = queue.shift(); e; e = queue.shift()) {
            let v: Verdict;
            try {
              v = verifyEntry(e as never, await api.proof(roomId, e.seq), verifier);
            } catch (err) {
              v = { ok: false, reason: `no proof: ${(err as Error).message}` };
            }
            if (cancelled) return;
            const seq = e.seq;
            setChecks((prev) => ({ ...prev, [seq]: v }));
          }
        };
        await Promise.all([worker(), worker(), worker(), worker()]);
      } catch (err) {
        if (!cancelled) setError((err as Error).message);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [roomId, from]);

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
