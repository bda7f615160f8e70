import type { Legal } from './contract.ts';

/**
 * A scripted cast: how to open one room of a protocol and play it, step by step, with checkpoints
 * where the privacy conformance kit (packages/server/test/privacy-kit) reads the room over every
 * read path the server has, as every viewer class, and checks that nothing appears that the
 * protocol's `view()` would hide from that viewer. Every protocol declares one beside its rules
 * (`<protocol>/src/cast.ts`) and registers it in `builtinCasts`; the kit fails for a protocol that
 * has none. A cast is pure data and pure functions: the kit supplies the markers and the time.
 */

/**
 * Fresh secret markers the kit hands a cast to plant in hidden content (a sealed bid's amount, a
 * private draft's text). The same label gives the same marker, so a decision may ask again.
 */
export interface CastMarks {
  /** A random word (letters, digits and dashes) that appears nowhere else. */
  text(label: string): string;
  /** A random integer in [min, max] that no other marker of this room has. */
  int(label: string, min: number, max: number): number;
}

/** What a seat sees when the cast decides its move: read from the server as that seat. */
export interface CastTurn {
  seat: string;
  view: unknown;
  legal: Legal;
  marks: CastMarks;
}

/**
 * A secret the kit cannot plant because the protocol deals it (poker's hole cards): every form it
 * can take on the wire. A viewer whose view shows none of the forms must be served none of them.
 */
export interface CastSecret {
  label: string;
  forms: readonly string[];
}

export type CastStep =
  /** One action by one seat (a function of what that seat sees, when it needs its legal moves). */
  | { kind: 'act'; seat: string; action: { readonly [key: string]: unknown } | ((turn: CastTurn) => unknown) }
  /**
   * The seats act, each as `decide` says (null: nothing now), round after round, until `until`
   * holds on the admin view; when nobody acts and `advance` is set, time moves to the next deadline.
   */
  | {
      kind: 'play';
      seats: readonly string[];
      decide(turn: CastTurn): unknown | null;
      until(adminView: unknown): boolean;
      advance?: boolean;
    }
  /** Move the clock to the room's next deadline and tick it. */
  | { kind: 'advance' }
  /** The kit probes every read path here; `secrets` names dealt secrets from the admin view. */
  | { kind: 'checkpoint'; name: string; secrets?(adminView: unknown): readonly CastSecret[] };

export interface CastRoom {
  /** The create-room config (the module may fill server-side parts, as on `POST /v1/rooms`). */
  config: unknown;
  title?: string;
  /**
   * A room opened under a fixed id from an outside source (a replicated stream), as that source
   * opens it: straight on the runtime, not through `POST /v1/rooms` (`question`).
   */
  id?: string;
  steps: readonly CastStep[];
}

export interface Cast {
  /** The registry name of the protocol it plays. */
  protocol: string;
  /**
   * Why nothing in this protocol's rooms is hidden from anyone in the room, when that is so (the
   * kit then does not ask the cast to plant a secret that some viewer may not see).
   */
  public?: string;
  /** The room to open and the steps to play, given markers and the kit's clock (unix ms). */
  room(ctx: { marks: CastMarks; now: number }): CastRoom;
}
