import { useState } from 'react';
import type { GameStatePayload } from '../rules/index.ts';
import { pokerApi } from './tables.ts';

// Admin: give a seat play-money chips (POST /v1/admin/tables/:id/top-up). A busted seat sits at 0
// for the rest of the table otherwise; busted seats are listed first.

export function TopUp(props: { tableId: string; state: GameStatePayload; startingStack: number | null }) {
  const seats = props.state.seats
    .filter((s) => s.status !== 'empty')
    .sort((a, b) => Number(a.stack > 0) - Number(b.stack > 0) || a.seat_id - b.seat_id);
  const [seat, setSeat] = useState<number | null>(null);
  const [amount, setAmount] = useState('');
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  if (seats.length === 0) return null;
  const chosen = seat ?? seats[0]!.seat_id;
  const fallback = props.startingStack ?? 1000;

  const send = async () => {
    const n = Number(amount === '' ? fallback : amount);
    try {
      const ack = await pokerApi.topUp(props.tableId, chosen, n);
      setResult({ ok: true, text: `seat ${chosen} gets ${n} chips (entry #${ack.seq})` });
    } catch (e) {
      setResult({ ok: false, text: (e as Error).message });
    }
  };

  return (
    <section className="card" aria-labelledby="topup-h" data-testid="top-up">
      <h2 id="topup-h">Top up a seat</h2>
      <p className="small muted">
        Play money: the chips are added to the seat's stack.
        {seats.some((s) => s.stack === 0)
          ? ` Busted: ${seats
              .filter((s) => s.stack === 0)
              .map((s) => `seat ${s.seat_id}`)
              .join(', ')}.`
          : ''}
      </p>
      <div className="row">
        <label htmlFor="topup-seat">seat</label>
        <select id="topup-seat" value={chosen} onChange={(e) => setSeat(Number(e.target.value))}>
          {seats.map((s) => (
            <option key={s.seat_id} value={s.seat_id}>
              seat {s.seat_id} · {s.stack}
              {s.stack === 0 ? ' (busted)' : ''}
            </option>
          ))}
        </select>
        <label htmlFor="topup-amount">chips</label>
        <input
          id="topup-amount"
          type="number"
          min={1}
          step={1}
          placeholder={String(fallback)}
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
        <button type="button" onClick={() => void send()}>
          Top up
        </button>
      </div>
      {result ? (
        <p className={result.ok ? 'ok small' : 'error small'} role="status" data-testid="top-up-result">
          {result.text}
        </p>
      ) : null}
    </section>
  );
}
