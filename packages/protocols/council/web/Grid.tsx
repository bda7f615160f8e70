import {
  type Cell,
  type CouncilView,
  cellOf,
  cellSummary,
  GRID_ROLES,
  GRID_STAGES,
  gridProgress,
  type TurnStage,
} from './model.ts';

// Roles × stages: each cell is one role's turn at one stage, filling in live. A round's turns stay
// "sealed" (played, content hidden) until the round closes; a failed turn shows its error code.

const STAGE_LABEL: Record<TurnStage, [string, string]> = {
  Round1: ['Round 1', 'opening'],
  Round2: ['Round 2', 'challenge'],
  Round3: ['Round 3', 'revision'],
  Consensus: ['Consensus', 'assessment'],
  Judge: ['Judge', 'verdict'],
};

function CellView(props: { cell: Cell; testId: string; label: string; stage: string }) {
  const { cell } = props;
  // data-label: the stage's name over the cell when the grid reflows on a phone (table.reflow).
  const common = {
    'data-testid': props.testId,
    'data-state': cell.state,
    'aria-label': props.label,
    'data-label': props.stage,
  };
  switch (cell.state) {
    case 'na':
      return (
        <td {...common} className="cc na">
          <span aria-hidden="true">—</span>
        </td>
      );
    case 'empty':
      return (
        <td {...common} className={`cc empty${cell.live ? ' live-wait' : ''}`}>
          <span className="muted small">{cell.live ? 'waiting for turn…' : 'not yet'}</span>
        </td>
      );
    case 'sealed':
      return (
        <td {...common} className="cc sealed" title="Played and sealed: revealed when the round closes">
          <span className="cc-head">sealed</span>
          <span className="muted small">revealed when the round closes</span>
        </td>
      );
    case 'failed': {
      const { error, call } = cell.turn;
      return (
        <td {...common} className="cc failed" title={error.message}>
          <span className="cc-head">
            <span aria-hidden="true">✕ </span>failed
          </span>
          <code className="cc-code small">{error.code}</code>
          <span className="cc-text small">{error.message}</span>
          {call && call.attempts > 0 ? (
            <span className="cc-meta small">{call.attempts} attempt(s)</span>
          ) : null}
        </td>
      );
    }
    case 'ok': {
      const s = cellSummary(cell.turn);
      const call = cell.turn.call;
      return (
        <td {...common} className="cc ok" title={s.text}>
          <span className="cc-head">{s.head}</span>
          <span className="cc-text small">{s.text}</span>
          {call?.repaired ? <span className="cc-meta small warn">repaired</span> : null}
        </td>
      );
    }
  }
}

export function CouncilGrid(props: { view: CouncilView }) {
  const { view } = props;
  const progress = gridProgress(view);
  const packetState = view.packet ? 'ok' : view.status === 'aborted' ? 'failed' : 'empty';
  return (
    <section className="card council-grid-card" aria-labelledby="grid-h">
      <h2 id="grid-h">
        Turns{' '}
        <span className="muted small" data-testid="grid-progress">
          {progress.filled}/{progress.total} played
        </span>
      </h2>
      <div className="table-wrap">
        <table className="council-grid reflow" data-testid="council-grid">
          <thead>
            <tr>
              <th scope="col">Role</th>
              {GRID_STAGES.map((s) => (
                <th
                  scope="col"
                  key={s}
                  className={view.stage === s && view.status === 'running' ? 'now' : undefined}
                >
                  {STAGE_LABEL[s][0]}
                  <span className="th-sub">{STAGE_LABEL[s][1]}</span>
                </th>
              ))}
              <th scope="col" className={view.stage === 'Packetize' ? 'now' : undefined}>
                Packet
                <span className="th-sub">final</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {GRID_ROLES.map((role, i) => (
              <tr key={role}>
                <th scope="row">
                  {role}
                  <span className="muted small cc-who">
                    {view.config.roster[i]?.scripted ? 'scripted' : view.config.roster[i]?.model}
                  </span>
                </th>
                {GRID_STAGES.map((stage) => (
                  <CellView
                    key={stage}
                    cell={cellOf(view, role, stage)}
                    testId={`cell-${role}-${stage}`}
                    label={`${role}, ${stage}`}
                    stage={STAGE_LABEL[stage].join(' · ')}
                  />
                ))}
                {i === 0 ? (
                  <td
                    rowSpan={GRID_ROLES.length}
                    className={`cc packet-cell ${packetState}`}
                    data-label="packet · final"
                    data-testid="cell-packet"
                    data-state={packetState}
                  >
                    {view.packet ? (
                      <>
                        <span className="cc-head">ready</span>
                        <span className="small">
                          {view.packet.degradation.degraded ? 'degraded' : 'complete'}
                        </span>
                        {view.packetSha256 ? (
                          <code className="small" title={view.packetSha256}>
                            {view.packetSha256.slice(0, 12)}…
                          </code>
                        ) : null}
                      </>
                    ) : (
                      <span className="muted small">
                        {view.status === 'aborted' ? 'no packet' : 'after the verdict'}
                      </span>
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
