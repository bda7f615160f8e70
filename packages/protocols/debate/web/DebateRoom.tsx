import type { Room } from '@db8/web/kit';
import {
  ActionForm,
  Badge,
  Link,
  LiveBadge,
  statusTone,
  tokenFor,
  useCredentials,
  useRoomInfo,
  useRoomLive,
} from '@db8/web/kit';
import { AdminOps } from './AdminOps.tsx';
import { DraftEditor } from './DraftEditor.tsx';
import { isOverPhase, legalOf, readDebate } from './model.ts';
import { useIdentityNames } from './names.tsx';
import { Participants } from './Participants.tsx';
import { PhaseBar } from './PhaseBar.tsx';
import { ResearchPanel } from './ResearchPanel.tsx';
import { Results } from './Results.tsx';
import { ScoreForm, StanceForm } from './ScoreForms.tsx';
import { SeatCard } from './SeatCard.tsx';
import { Transcript } from './Transcript.tsx';
import { VerdictDesk } from './VerdictForm.tsx';
import { ContinueVote, FinalVote } from './VoteDialogs.tsx';

// A debate room as "chat with rails": the phase and a large countdown from the server's deadline
// on top, the transcript as it is revealed round by round, and a side drawer with what this seat
// may do now (the draft editor, the fact-checker's desk, vote dialogs, judges' and viewers' forms).

/** Actions with no dedicated UI here go through the generic action form. */
const GENERIC = new Set(['bind_identity']);

export function DebateRoom(props: { roomId: string; room: Room | null }) {
  useCredentials();
  const { roomId } = props;
  // Typed events too: presence and who's typing (docs/debate.md, "Realtime events").
  const live = useRoomLive(roomId, tokenFor(roomId), { events: true });
  // The room page read it; the live feed refreshes it as the log grows (seats change).
  const room: Room | null = useRoomInfo(roomId).data ?? props.room;

  const debate = readDebate(live.state);
  // Unmasked identities are principal ids: show their names.
  const names = useIdentityNames(debate?.view.debaters.map((d) => d.identity) ?? []);
  const head = (
    <header className="debate-head">
      <p className="crumbs small">
        <Link to="/">Rooms</Link> / <span className="mono">{roomId}</span>
      </p>
      <div className="debate-title">
        <h1>{room?.title ?? 'Debate'}</h1>
        <LiveBadge status={live.status} closed={(live.state?.status ?? room?.status) === 'closed'} />
        <Badge tone={statusTone(live.state?.status ?? room?.status ?? '')} testId="room-status">
          {live.state?.status ?? room?.status ?? '…'}
        </Badge>
        <Link to={`/rooms/${encodeURIComponent(roomId)}/journal`} className="button ghost small">
          Journal
        </Link>
        <Link
          to={`/rooms/${encodeURIComponent(roomId)}`}
          search={{ raw: '1' }}
          className="button ghost small"
        >
          Raw log
        </Link>
      </div>
    </header>
  );
  const errors = (
    <>
      {live.error ? (
        <p className="error" role="alert">
          {live.error}
        </p>
      ) : null}
      {debate?.problem ? (
        <p className="error" role="alert">
          {debate.problem}
        </p>
      ) : null}
    </>
  );
  if (!debate) {
    return (
      <div className="debate">
        {head}
        {errors}
        <p className="muted">
          {live.state ? 'This room does not look like a debate.' : 'Loading the debate…'}
        </p>
      </div>
    );
  }

  const { view, legal } = debate;
  const seat = view.you.seat ?? null;
  const role = view.you.role;
  const round = view.rounds[view.round - 1];
  const myRow = seat ? round?.submissions.find((s) => s.author === seat) : undefined;
  const send = (action: unknown) => {
    if (!seat) return Promise.reject({ code: 'NO_SEAT', message: 'this browser holds no seat here' });
    return live.act(seat, action);
  };
  const finalVote = legalOf(legal, 'final_vote');
  const generic = legal.filter((a) => GENERIC.has(a.type));
  const scoreLegal = legalOf(legal, 'score');
  const stanceLegal = legal.filter((a) => a.type === 'stance');
  const myKeys = view.debaters.find((d) => d.seat === seat)?.keys ?? [];

  return (
    <div className="debate">
      {head}
      {errors}
      <PhaseBar
        view={view}
        deadlineMs={live.state?.deadline_ms ?? null}
        deadlineUnix={live.state?.deadline_unix ?? null}
        skewMs={live.skewMs}
      />
      {view.paused ? (
        <p className="card small" role="status" data-testid="paused-banner">
          Paused by an admin: the clock is stopped with {Math.round(view.paused.remaining / 1000)} s left in
          this window.
        </p>
      ) : null}
      {view.aborted ? (
        <p className="card small" role="status" data-testid="aborted-banner">
          Aborted by an admin ({view.aborted.reason}): closed without results, not rated.
        </p>
      ) : null}
      {view.results ? <Results view={view} roomId={roomId} /> : null}
      <div className="debate-grid">
        <Transcript view={view} mySeat={seat} names={names} roomId={roomId} />
        <aside className="drawer" aria-label="your desk">
          {role === 'admin' ? <AdminOps roomId={roomId} view={view} /> : null}
          <SeatCard
            // The socket's state says closed first; the room's record follows on its next read.
            room={room && live.state ? { ...room, status: live.state.status } : room}
            roomId={roomId}
            role={role}
            onJoined={() => void live.refreshState()}
          />
          {seat && role === 'debater' ? (
            <ContinueVote
              view={view}
              seat={seat}
              open={legalOf(legal, 'vote_continue') !== undefined}
              send={send}
            />
          ) : null}
          {seat ? (
            <FinalVote view={view} seat={seat} candidates={finalVote?.candidates ?? null} send={send} />
          ) : null}
          {seat && view.phase === 'research' ? <ResearchPanel roomId={roomId} view={view} /> : null}
          {seat && role === 'debater' && !isOverPhase(view.phase) ? (
            <DraftEditor
              roomId={roomId}
              seat={seat}
              phase={view.phase}
              roundId={round?.round_id ?? null}
              submit={legalOf(legal, 'submit')}
              canDraft={legalOf(legal, 'draft') !== undefined}
              canRegisterKey={legalOf(legal, 'register_key') !== undefined}
              registeredKeys={myKeys}
              row={myRow}
              send={send}
              onTyping={live.typing}
            />
          ) : null}
          {seat && view.phase !== 'research' && !isOverPhase(view.phase) ? (
            <ResearchPanel roomId={roomId} view={view} />
          ) : null}
          {seat && role === 'fact_checker' ? <VerdictDesk view={view} legal={legal} send={send} /> : null}
          {seat && scoreLegal ? <ScoreForm view={view} seat={seat} legal={scoreLegal} send={send} /> : null}
          {seat
            ? stanceLegal.map((l) => (
                <StanceForm key={l.when} view={view} seat={seat} legal={l} send={send} />
              ))
            : null}
          {seat && generic.length > 0 ? (
            <ActionForm seat={seat} legal={generic} turnToken={null} send={send} />
          ) : null}
          <Participants view={view} mySeat={seat} names={names} presence={live.presence} />
        </aside>
      </div>
    </div>
  );
}
