import { useCallback, useEffect, useState } from 'react';
import { researchFetch, researchList } from '../client/index.ts';
import type { ResearchEntry } from '../rules/index.ts';
import { roomClient } from './CitationCheck.tsx';
import type { DebateView } from './model.ts';

// The research drawer (seed 000: "Right drawer (participants only): Research tools"): a debater in
// research or a submit phase, or the fact-checker while verifying, fetches a page on the server into
// the room's shared cache; every seat sees the cache (docs/debate.md, "Research").

const FETCH_PHASES: Record<string, readonly string[]> = {
  debater: ['research', 'submit', 'final_submit'],
  fact_checker: ['verify', 'final_verify'],
};

export function ResearchPanel(props: { roomId: string; view: DebateView }) {
  const { roomId, view } = props;
  const [entries, setEntries] = useState<ResearchEntry[] | null>(null);
  const [url, setUrl] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const canFetch = FETCH_PHASES[view.you.role]?.includes(view.phase) ?? false;

  const reload = useCallback(() => {
    researchList(roomClient(roomId), roomId)
      .then((r) => setEntries(r.entries))
      .catch(() => setEntries(null));
  }, [roomId]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: other seats fill the cache; reload each phase.
  useEffect(reload, [reload, view.phase, view.round]);

  async function fetchPage(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      const r = await researchFetch(roomClient(roomId), roomId, url.trim());
      setMessage({
        error: false,
        text: `${r.cached ? 'Already in the cache' : 'Fetched'}: sha256 ${r.sha256.slice(0, 12)}…, ${r.bytes} bytes`,
      });
      setUrl('');
      reload();
    } catch (err) {
      const x = err as { code?: string; message?: string };
      setMessage({ error: true, text: `${x.code ?? 'ERROR'}: ${x.message ?? String(err)}` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card research" aria-labelledby="research-h">
      <h2 id="research-h">Research</h2>
      {canFetch ? (
        <form onSubmit={(e) => void fetchPage(e)} className="research-form">
          <label className="small" htmlFor="research-url">
            Fetch a public web page into the room's cache
          </label>
          <input
            id="research-url"
            type="url"
            required
            placeholder="https://…"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
          <button type="submit" disabled={busy || url.trim() === ''}>
            {busy ? 'Fetching…' : 'Fetch'}
          </button>
        </form>
      ) : (
        <p className="small muted">The research tool is open to debaters in research and submit phases.</p>
      )}
      {message ? (
        <p className={message.error ? 'error small' : 'small'} role={message.error ? 'alert' : 'status'}>
          {message.text}
        </p>
      ) : null}
      {entries && entries.length > 0 ? (
        <ul className="research-list small" aria-label="the room's research cache">
          {entries.map((e) => (
            <li key={e.url} data-testid="research-entry">
              <a href={e.url} target="_blank" rel="noreferrer noopener">
                {e.title || e.url}
              </a>{' '}
              <span className="mono muted" title={e.sha256}>
                sha256 {e.sha256.slice(0, 12)}…
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="small muted">{entries ? 'Nothing fetched yet.' : ''}</p>
      )}
    </section>
  );
}
