import { protocolNamed } from '../../lib/protocols.ts';

// Who plays each seat of a new room: left open (people and agents join it), or played by the
// server's drivers — the protocol's scripted cast or a model from a provider profile the server
// has keys for (POST /v1/rooms `drivers`, docs/drivers.md). Seats come from the protocol's own
// `seats(config)`, so they follow the form; reserved seats (the server's own) are not offered.

export type SeatDriver =
  | { kind: 'open' }
  | { kind: 'scripted' }
  | { kind: 'model'; provider: string; model: string };
export type DriverChoices = Record<string, SeatDriver>;

type DriverSpec = { driver: 'model'; provider: string; model?: string };

/** The seats a config gives, or null while the config does not parse. */
export function seatsOf(protocol: string, config: unknown): { id: string; role: string }[] | null {
  const p = protocolNamed(protocol);
  if (!p) return null;
  const r = p.configSchema.safeParse(config);
  if (!r.success) return null;
  const reserved = new Set(p.reservedRoles ?? []);
  return p.seats(r.data).filter((s) => !reserved.has(s.role));
}

/** The `drivers` body for the seats that exist (choices for seats a smaller config dropped are ignored). */
export function driversBody(
  choices: DriverChoices,
  seats: readonly { id: string }[],
): Record<string, DriverSpec> | undefined {
  const out: Record<string, DriverSpec> = {};
  for (const { id } of seats) {
    const c = choices[id];
    if (c?.kind === 'scripted') out[id] = { driver: 'model', provider: 'scripted' };
    if (c?.kind === 'model' && c.provider.trim())
      out[id] = {
        driver: 'model',
        provider: c.provider.trim(),
        ...(c.model.trim() ? { model: c.model.trim() } : {}),
      };
  }
  return Object.keys(out).length ? out : undefined;
}

const KINDS = ['open', 'scripted', 'model'] as const;

export function DriverPicker(props: {
  protocol: string;
  config: unknown;
  value: DriverChoices;
  onChange: (next: DriverChoices) => void;
}) {
  const seats = seatsOf(props.protocol, props.config);
  const set = (seat: string, d: SeatDriver) => props.onChange({ ...props.value, [seat]: d });
  const all = (d: SeatDriver) => props.onChange(Object.fromEntries((seats ?? []).map((s) => [s.id, d])));
  return (
    <fieldset className="drivers" data-testid="drivers">
      <legend>who plays each seat</legend>
      {!seats ? (
        <p className="muted small">Complete the settings above to choose who plays each seat.</p>
      ) : (
        <>
          <p className="small muted">
            Open seats wait for people and agents to join. Scripted seats are played by the server with a
            fixed script (labelled as such); model seats by a provider the server has a key for.{' '}
            <button type="button" className="ghost small" onClick={() => all({ kind: 'open' })}>
              all open
            </button>{' '}
            <button type="button" className="ghost small" onClick={() => all({ kind: 'scripted' })}>
              all scripted
            </button>
          </p>
          <div className="driver-rows">
            {seats.map((s) => {
              const d = props.value[s.id] ?? { kind: 'open' };
              const id = `drv-${s.id}`;
              return (
                <div className="driver-row" key={s.id} data-seat={s.id}>
                  <label htmlFor={id} className="mono small">
                    {s.id} <span className="muted">({s.role})</span>
                  </label>
                  <select
                    id={id}
                    value={d.kind}
                    onChange={(e) => {
                      const k = e.target.value as SeatDriver['kind'];
                      set(
                        s.id,
                        k === 'model' ? { kind: 'model', provider: 'openai', model: '' } : { kind: k },
                      );
                    }}
                  >
                    {KINDS.map((k) => (
                      <option key={k} value={k}>
                        {k}
                      </option>
                    ))}
                  </select>
                  {d.kind === 'model' ? (
                    <>
                      <input
                        aria-label={`${s.id} provider`}
                        placeholder="provider"
                        value={d.provider}
                        onChange={(e) => set(s.id, { ...d, provider: e.target.value })}
                      />
                      <input
                        aria-label={`${s.id} model`}
                        placeholder="model (provider default)"
                        value={d.model}
                        onChange={(e) => set(s.id, { ...d, model: e.target.value })}
                      />
                    </>
                  ) : null}
                </div>
              );
            })}
          </div>
        </>
      )}
    </fieldset>
  );
}
