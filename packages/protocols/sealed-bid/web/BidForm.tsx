import type { SeatActionsProps } from '@db8/web/kit';
import { type FormEvent, useState } from 'react';

// A bidder's sealed bid as a form: the amount, at least the reserve (the legal action's
// `minAmount`). The room keeps the amount sealed from everyone else until the reveal.

type LegalBid = { type: 'bid'; minAmount: number; current?: number };

const isBid = (l: unknown): l is LegalBid =>
  typeof l === 'object' && l !== null && (l as { type?: unknown }).type === 'bid';

export function BidForm(props: SeatActionsProps) {
  const legal = props.legal.find(isBid);
  const [amount, setAmount] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  if (!legal || props.closed) return null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const n = Number(amount === '' ? legal.minAmount : amount);
    if (!Number.isInteger(n) || n < legal.minAmount) {
      setResult({ ok: false, text: `a whole number, at least ${legal.minAmount}` });
      return;
    }
    setBusy(true);
    try {
      const ack = await props.send({ type: 'bid', amount: n });
      setResult({ ok: true, text: `sealed bid of ${n} recorded as entry #${ack.seq}` });
    } catch (err) {
      const e2 = err as { code?: string; message: string };
      setResult({ ok: false, text: `${e2.code ?? 'ERROR'}: ${e2.message}` });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card bid-form" onSubmit={submit} aria-labelledby="bid-h">
      <h2 id="bid-h">Your sealed bid</h2>
      <p className="small muted">
        Only you see the amount until bidding ends.
        {legal.current !== undefined ? ` Your bid now: ${legal.current}; a new one replaces it.` : ''}
      </p>
      <div className="row">
        <label htmlFor="bid-amount">amount</label>
        <input
          id="bid-amount"
          type="number"
          min={legal.minAmount}
          step={1}
          placeholder={String(legal.minAmount)}
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Sealing…' : 'Place sealed bid'}
        </button>
      </div>
      {result ? (
        <p className={result.ok ? 'ok' : 'error'} role="status" data-testid="bid-result">
          {result.text}
        </p>
      ) : null}
    </form>
  );
}
