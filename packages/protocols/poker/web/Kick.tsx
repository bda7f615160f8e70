import { useState } from 'react';
import type { GameStatePayload } from '../rules/index.ts';
import { pokerApi } from './tables.ts';

// Admin: remove a seat from play (seed 002 §10.1; POST /v1/admin/tables/:id/kick). The seat is
// folded at its turn and may not sit in again; its chips stay on the record.

export function Kick(props: { tableId: string; state: GameStatePayload }) {
  const seats = props.state.seats.filter((s) => s.status !== 'empty');
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  if (seats.length === 0) return null;
  const kick = async (seat: number) => {
    if (!confirm(`Remove seat ${seat} from the table? It cannot sit in again.`)) return;
    try {
      const ack = await pokerApi.kick(props.tableId, seat);
      setResult({ ok: true, text: `seat ${seat} removed (entry #${ack.seq})` });
    } catch (e) {
      setResult({ ok: false, text: (e as Error).message });
    }
  };
  return (
    <section className="card" aria-labelledby="kick-h" data-testid="kick">
      <h2 id="kick-h">Remove a seat</h2>
      <ul className="row">
        {seats.map((s) => (
          <li key={s.seat_id}>
            <button type="button" className="ghost" onClick={() => void kick(s.seat_id)}>
              Remove seat {s.seat_id}
            </button>{' '}
            <span className="small muted">{s.status === 'sittingOut' ? 'sitting out' : 'playing'}</span>
          </li>
        ))}
      </ul>
      {result ? (
        <p className={result.ok ? 'ok small' : 'error small'} role="status">
          {result.text}
        </p>
      ) : null}
    </section>
  );
}
