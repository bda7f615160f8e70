import { useState } from 'react';
import { api } from '../lib/api.ts';
import { useNavigate } from '../lib/router.tsx';
import { ModuleScope } from '../protocols/module.tsx';
import { installedProtocols, moduleFor } from '../protocols/registry.ts';
import { type DriverChoices, DriverPicker, driversBody, seatsOf } from './create/Drivers.tsx';
import { GeneratedForm } from './create/GeneratedForm.tsx';

// Admin form: pick a protocol, fill its config (the protocol module's own form, or one generated
// from its zod schema), choose who plays each seat, create the room and go to it.

export function CreateRoom(props: {
  onCreated?: () => void;
  /** One protocol only (a module's own admin page): no protocol picker, the same form and drivers. */
  protocol?: string;
  heading?: string;
}) {
  const [protocol, setProtocol] = useState(props.protocol ?? installedProtocols()[0]?.name ?? '');
  const navigate = useNavigate();
  const [title, setTitle] = useState('');
  const [drivers, setDrivers] = useState<DriverChoices>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const mod = moduleFor(protocol);
  // Left blank, the title is the module's name for the room (clipped to the server's 200).
  const fallbackTitle = (config: unknown) => (mod?.titleFromConfig?.(config) ?? '').trim().slice(0, 200);

  const pick = (name: string) => {
    setProtocol(name);
    setDrivers({});
    setError(null);
  };

  const create = async (config: Record<string, unknown>) => {
    setBusy(true);
    setError(null);
    try {
      // A config the server completes (a filled-in part) may not list its seats here: then every
      // seat chosen in the picker is sent, and the server ignores seats the room does not have.
      const seats = seatsOf(protocol, config) ?? Object.keys(drivers).map((id) => ({ id }));
      const driven = mod?.drivers ? driversBody(drivers, seats) : undefined;
      const named = title.trim() || fallbackTitle(config);
      const room = await api.createRoom({
        protocol,
        config,
        ...(named ? { title: named } : {}),
        ...(driven ? { drivers: driven } : {}),
      });
      props.onCreated?.();
      void navigate({ to: `/rooms/${encodeURIComponent(room.room_id)}` });
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const footer = (config: unknown) => (
    <>
      <div className="field">
        <label htmlFor="cr-title">room title (optional, shown in the lobby)</label>
        <input
          id="cr-title"
          type="text"
          maxLength={200}
          placeholder={fallbackTitle(config)}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
        />
      </div>
      {mod?.drivers ? (
        <DriverPicker protocol={protocol} config={config} value={drivers} onChange={setDrivers} />
      ) : null}
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Creating…' : 'Create room'}
      </button>
    </>
  );

  return (
    <section className="card create-room" aria-labelledby="create-room-h">
      <h2 id="create-room-h">{props.heading ?? 'New room'}</h2>
      {props.protocol ? null : (
        <div className="field">
          <label htmlFor="cr-protocol">protocol</label>
          <select id="cr-protocol" value={protocol} onChange={(e) => pick(e.target.value)}>
            {installedProtocols().map((p) => (
              <option key={p.name} value={p.name}>
                {p.name} (v{p.version})
              </option>
            ))}
          </select>
        </div>
      )}
      {mod?.CreateForm ? (
        // In the module's scope, so its stylesheet reaches its own form.
        <ModuleScope module={mod}>
          <mod.CreateForm
            key={protocol}
            onSubmit={create}
            footer={footer}
            opened={(roomId) => {
              props.onCreated?.();
              void navigate({ to: `/rooms/${encodeURIComponent(roomId)}` });
            }}
          />
        </ModuleScope>
      ) : (
        <GeneratedForm
          key={protocol}
          protocol={protocol}
          preset={{ ...mod?.createPreset }}
          onSubmit={create}
          footer={footer}
        />
      )}
    </section>
  );
}
