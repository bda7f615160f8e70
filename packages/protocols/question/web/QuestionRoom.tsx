import type { Room } from '@db8/web/kit';
import {
  Badge,
  Countdown,
  getSession,
  Link,
  LiveBadge,
  signInHref,
  statusTone,
  tokenFor,
  useCredentials,
  useQuery,
  useRoomLive,
} from '@db8/web/kit';
import type { QuestionView } from '../rules/index.ts';
import { isQuestionView, refusalText, swarmApi } from './api.ts';
import { AnswerForm, CloseForm, PolicyForm, type Role, SummaryForm, VerdictButtons } from './Forms.tsx';
import { questionKeys } from './keys.ts';
import { CloseCard, Facts, Messages, Participants, ProfileCard, Summaries } from './RoomParts.tsx';
import { SecretaryCard } from './SecretaryCard.tsx';

// A swarm question's answer room: the question and its envelope, the messages as this node folds
// them from the stream (the room's view pushed over the app's one socket), the profile, summaries
// and the close. A signed-in person writes through this node (its node key signs), so the person's
// role here is the node's: asker when this node asked, else participant once joined.

/** Who this node signs as, to know its role in the room (null until known or when offline). */
function useNodeParticipant(): { id: string | null; online: boolean; error: string | null } {
  const node = useQuery({ queryKey: questionKeys.node(), queryFn: swarmApi.node });
  return {
    id: node.data?.participant_id ?? null,
    online: node.data?.online ?? false,
    error: node.error ? refusalText(node.error) : null,
  };
}

const wide = () => typeof window.matchMedia === 'function' && window.matchMedia('(min-width: 800px)').matches;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function roleOf(view: QuestionView, me: string | null): Role {
  if (!me) return null;
  if (view.question.asker === me) return 'asker';
  if (view.secretary?.participant === me) return 'secretary';
  return view.participants.some((p) => p.id === me) ? 'participant' : null;
}

export function QuestionRoom(props: { roomId: string; room: Room }) {
  const { roomId } = props;
  useCredentials();
  const session = getSession();
  const live = useRoomLive(roomId, tokenFor(roomId));
  const node = useNodeParticipant();
  const view = isQuestionView(live.state?.view) ? live.state.view : null;
  if (!view) {
    return (
      <section className="card">
        <p className="muted">{live.error ?? 'Loading the answer room…'}</p>
      </section>
    );
  }
  const open = view.status === 'open';
  const role = roleOf(view, node.id);
  const chair = role === 'asker' || role === 'secretary' ? role : null;
  return (
    <div className="q-room">
      <section className="card q-head" aria-labelledby="q-title">
        <p className="crumbs small">
          <Link to="/questions">Questions</Link> · <span className="mono">{view.question.scope}</span> ·{' '}
          <Link to={`/rooms/${encodeURIComponent(roomId)}/journal`}>journal</Link> ·{' '}
          <Link to={`/rooms/${encodeURIComponent(roomId)}`} search={{ raw: '1' }}>
            raw
          </Link>
        </p>
        <div className="q-title-row">
          <h1 id="q-title" className="q-text" data-testid="q-text">
            {view.question.text}
          </h1>
          <div className="q-status">
            <Badge tone={statusTone(view.status)} testId="q-room-status">
              {view.status}
            </Badge>{' '}
            <LiveBadge status={live.status} closed={!open} />
          </div>
        </div>
        {open ? (
          <Countdown deadlineUnix={null} deadlineMs={view.question.deadline} skewMs={live.skewMs} />
        ) : null}
        {/* Open on a wide screen; a phone shows the messages first and the facts on a tap. */}
        <details className="q-envelope" open={wide()}>
          <summary>Envelope</summary>
          <Facts view={view} />
        </details>
        {live.error ? <p className="error small">{live.error}</p> : null}
      </section>
      <div className="q-grid">
        <div className="q-main">
          <section className="card" aria-labelledby="q-msgs-h">
            <h2 id="q-msgs-h">
              Answers and messages{' '}
              <span className="muted small" data-testid="q-answer-count">
                {plural(view.messages.filter((m) => m.kind === 'answer').length, 'answer')}
              </span>
            </h2>
            <Messages
              view={view}
              actions={
                open && session && role === 'asker' && node.online
                  ? (m) =>
                      m.kind === 'answer' ? (
                        <VerdictButtons questionId={view.question.id} messageId={m.key ?? m.id} />
                      ) : null
                  : undefined
              }
            />
            {open && session ? (
              node.online ? (
                <AnswerForm
                  key={`${view.profile}:${role ?? ''}:${view.secretary?.participant ?? ''}`}
                  view={view}
                  role={role}
                  speaker={session.principal}
                />
              ) : (
                <p className="muted small">{node.error ?? 'This node has no swarm transport: read only.'}</p>
              )
            ) : open ? (
              <p className="muted small">
                <Link to={signInHref(location.pathname)}>Sign in</Link> to answer.
              </p>
            ) : null}
          </section>
          <CloseCard view={view} />
          <Summaries view={view} />
          {open && session && chair && node.online ? (
            <section className="card" aria-labelledby="q-chair-h">
              <h2 id="q-chair-h">As the {chair}</h2>
              <SummaryForm view={view} role={chair} />
              <hr />
              <CloseForm key={view.summaries.length} view={view} role={chair} />
            </section>
          ) : null}
        </div>
        <aside className="q-side">
          <ProfileCard view={view}>
            {open && session && chair && node.online ? <PolicyForm key={view.profile} view={view} /> : null}
          </ProfileCard>
          <Participants view={view} />
          {open && session && node.online ? <SecretaryCard view={view} role={role} /> : null}
          <section className="card small muted">
            {role ? (
              <>
                This node is the <strong data-testid="q-my-role">{role}</strong> here.
              </>
            ) : (
              <>This node has not joined.</>
            )}
          </section>
        </aside>
      </div>
    </div>
  );
}
