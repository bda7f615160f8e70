import type { Ack, ActionError } from '@db8/web/kit';
import { useEffect, useState } from 'react';
import { type BrowserKey, createBrowserKey, loadBrowserKey } from './signing.ts';

// Opt-in: sign submissions in this browser. Turning it on makes a WebCrypto Ed25519 key (unless
// this browser already has one for the seat) and registers its public half with `register_key`
// before anything is signed with it; the protocol refuses signatures by unregistered keys.

export type SigningState = { on: boolean; key: BrowserKey | null };

export function SigningOption(props: {
  roomId: string;
  seat: string;
  canRegister: boolean;
  registeredKeys: readonly string[];
  send: (action: unknown) => Promise<Ack>;
  onChange: (s: SigningState) => void;
}) {
  const { roomId, seat, onChange } = props;
  const [key, setKey] = useState<BrowserKey | null>(null);
  const [on, setOn] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const supported = typeof indexedDB !== 'undefined' && !!globalThis.crypto?.subtle;

  useEffect(() => {
    if (!supported) return;
    loadBrowserKey(roomId, seat)
      .then((k) => {
        setKey(k);
        // A key this browser registered earlier means the user opted in before.
        if (k) setOn(true);
      })
      .catch(() => setKey(null));
  }, [roomId, seat, supported]);

  const registered = key !== null && props.registeredKeys.includes(key.publicHex);
  useEffect(
    () => onChange({ on: on && registered, key: registered ? key : null }),
    [on, registered, key, onChange],
  );

  const toggle = async (want: boolean) => {
    setError(null);
    if (!want) {
      setOn(false);
      return;
    }
    // Checked at once; signing starts only once the server lists the key (see `registered`).
    setOn(true);
    setBusy(true);
    try {
      const k = key ?? (await createBrowserKey(roomId, seat));
      setKey(k);
      if (!props.registeredKeys.includes(k.publicHex)) {
        await props.send({ type: 'register_key', public_key: k.publicHex });
      }
    } catch (err) {
      const e = err as ActionError;
      setOn(false);
      setError(`${e.code ? `${e.code}: ` : ''}${e.message}`);
    } finally {
      setBusy(false);
    }
  };

  if (!supported) return null;
  return (
    <div className="signing" data-testid="signing">
      <label className="inline">
        <input
          type="checkbox"
          checked={on}
          disabled={busy || (!props.canRegister && !registered)}
          onChange={(e) => void toggle(e.target.checked)}
        />
        Sign in this browser (Ed25519, key never leaves it)
      </label>
      {key ? (
        <span className="small muted mono" title={key.publicHex}>
          {' '}
          {key.fingerprint} {registered ? '· registered' : on ? '· registering…' : ''}
        </span>
      ) : null}
      {!on ? <p className="small muted">Unsigned submissions are attested by the server.</p> : null}
      {error ? (
        <p className="error small" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
