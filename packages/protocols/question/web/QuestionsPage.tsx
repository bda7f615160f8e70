import {
  Badge,
  formatRemaining,
  getSession,
  Link,
  remainingMs,
  signInHref,
  statusTone,
  useCredentials,
  useNavigate,
  useQuery,
  useQueryClient,
  useSearchParams,
} from '@db8/web/kit';
import { useEffect, useState } from 'react';
import { type QuestionListItem, SCOPES, type Scope } from '../rules/index.ts';
import { AskForm } from './AskForm.tsx';
import { refusalText, short, swarmApi } from './api.ts';
import { questionKeys } from './keys.ts';

// Swarm questions this node holds, newest first, filtered by scope and tag. The filter lives in the
// address (`/questions?tag=rust&scope=global`), so a filtered list can be linked and reloaded. The
// list is polled (refetchInterval): questions arrive from the stream, not from a room this page
// subscribes to, so there is no feed to invalidate it.

const POLL_MS = 3000;
type Status = 'active' | 'open' | 'closed' | 'all';
const STATUSES: readonly Status[] = ['active', 'open', 'closed', 'all'];

function useFilter() {
  const navigate = useNavigate();
  const q = new URLSearchParams(useSearchParams());
  const scope = (SCOPES as readonly string[]).includes(q.get('scope') ?? '') ? (q.get('scope') as Scope) : '';
  const status = (STATUSES as readonly string[]).includes(q.get('status') ?? '')
    ? (q.get('status') as Status)
    : 'active';
  const filter: { scope: Scope | ''; tag: string; status: Status } = {
    scope,
    tag: q.get('tag') ?? '',
    status,
  };
  const set = (next: Partial<typeof filter>) => {
    const merged = { ...filter, ...next };
    const out = new URLSearchParams();
    if (merged.scope) out.set('scope', merged.scope);
    if (merged.tag) out.set('tag', merged.tag);
    if (merged.status !== 'active') out.set('status', merged.status);
    void navigate({ to: '/questions', search: Object.fromEntries(out), replace: true });
  };
  return { filter, set };
}

/** The TTL left, ticking once a second (local clock: the list has no socket to learn the server's). */
function Ttl(props: { deadline: number; status: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  if (props.status !== 'open') return <span className="muted">—</span>;
  const left = remainingMs(props.deadline, 0, now);
  return (
    <span className={`mono${left < 60_000 ? ' q-soon' : ''}`} data-testid="q-ttl" title="time to live">
      {left === 0 ? 'expiring' : formatRemaining(left)}
    </span>
  );
}

function Row({ q, onTag }: { q: QuestionListItem; onTag: (t: string) => void }) {
  return (
    <li className="q-row" data-question={q.question_id}>
      <div className="q-row-main">
        <Link to={`/rooms/${encodeURIComponent(q.room_id)}`} className="q-row-text">
          {q.text}
        </Link>
        <div className="q-tags">
          {q.tags.map((t) => (
            <button
              key={t}
              type="button"
              className="chip q-tag"
              onClick={() => onTag(t)}
              title="filter by tag"
            >
              #{t}
            </button>
          ))}
        </div>
      </div>
      <dl className="q-row-facts small">
        <div>
          <dt>status</dt>
          <dd>
            <Badge tone={statusTone(q.status)} testId="q-status">
              {q.status}
            </Badge>
          </dd>
        </div>
        <div>
          <dt>ttl</dt>
          <dd>
            <Ttl deadline={q.deadline_unix} status={q.status} />
          </dd>
        </div>
        <div>
          <dt>answers</dt>
          <dd className="mono" data-testid="q-answers">
            {q.answers}
          </dd>
        </div>
        <div>
          <dt>scope</dt>
          <dd>{q.scope}</dd>
        </div>
        <div>
          <dt>asked by</dt>
          <dd className="mono" title={q.asker_node}>
            {short(q.asker_node)}
          </dd>
        </div>
      </dl>
    </li>
  );
}

export function QuestionsPage() {
  useCredentials();
  const navigate = useNavigate();
  const signedIn = getSession() !== null;
  const { filter, set } = useFilter();
  const [asking, setAsking] = useState(false);
  // Without a swarm transport (no NATS) say so before the form, not after a submit.
  const node = useQuery({ queryKey: questionKeys.node(), queryFn: swarmApi.node });
  const online = node.data?.online ?? null;
  const [tagDraft, setTagDraft] = useState(filter.tag);
  const { scope, tag, status } = filter;
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: questionKeys.questions({ scope, tag, status }),
    queryFn: () => swarmApi.list({ scope, tag, status }),
    refetchInterval: POLL_MS,
  });
  const items = list.data ?? null;
  const error = list.error ? refusalText(list.error) : null;
  const load = () => queryClient.invalidateQueries({ queryKey: questionKeys.allQuestions() });
  useEffect(() => setTagDraft(tag), [tag]);

  return (
    <>
      <section className="card" aria-labelledby="q-h">
        <div className="card-head">
          <h1 id="q-h">Swarm questions</h1>
          {online === false ? (
            <span className="muted small" role="status" data-testid="q-offline">
              SWARM_OFFLINE: this node has no swarm transport (no NATS), so it cannot ask; it shows the
              questions it holds.
            </span>
          ) : signedIn ? (
            <button type="button" className={asking ? 'ghost' : 'primary'} onClick={() => setAsking(!asking)}>
              {asking ? 'Cancel' : 'Ask the swarm'}
            </button>
          ) : (
            <span className="muted small">
              <Link to={signInHref(location.pathname)}>Sign in</Link> to ask.
            </span>
          )}
        </div>
        {asking ? (
          <AskForm
            onAsked={(_q, roomId) => {
              setAsking(false);
              if (roomId) void navigate({ to: `/rooms/${encodeURIComponent(roomId)}` });
              else void load();
            }}
          />
        ) : null}
      </section>
      <section className="card" aria-label="questions">
        <form
          className="q-filter"
          aria-label="filter questions"
          onSubmit={(e) => {
            e.preventDefault();
            set({ tag: tagDraft.trim() });
          }}
        >
          <label>
            <span className="q-filter-label">scope</span>
            <select value={scope} onChange={(e) => set({ scope: e.target.value as Scope | '' })}>
              <option value="">all scopes</option>
              {SCOPES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span className="q-filter-label">status</span>
            <select value={status} onChange={(e) => set({ status: e.target.value as Status })}>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span className="q-filter-label">tag</span>
            <input
              type="search"
              value={tagDraft}
              placeholder="any tag"
              onChange={(e) => setTagDraft(e.target.value)}
            />
          </label>
          <button type="submit">Filter</button>
          {tag || scope ? (
            <button type="button" className="ghost" onClick={() => set({ tag: '', scope: '' })}>
              Clear
            </button>
          ) : null}
        </form>
        {error ? <p className="error small">{error}</p> : null}
        {items === null ? (
          <p className="muted">Loading…</p>
        ) : items.length === 0 ? (
          <p className="muted" data-testid="q-empty">
            No {status === 'all' ? '' : `${status} `}questions{tag ? ` tagged #${tag}` : ''}
            {scope ? ` in ${scope}` : ''}.
          </p>
        ) : (
          <ul className="q-list" data-testid="q-list">
            {items.map((q) => (
              <Row key={q.question_id} q={q} onTag={(t) => set({ tag: t })} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
