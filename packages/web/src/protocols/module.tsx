import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import type { Ack, AgentSection, Entry, Room } from '../lib/types.ts';

// What a protocol adds to the web app. The generic app (App.tsx, the room page, the lobby's create
// form) iterates the registry and never names a protocol; a protocol with no module gets the generic
// room (live log, state as JSON, the action form) and a create form generated from its config schema.

/** A page at its own path; `path` uses TanStack Router's `$param` segments (`/tables/$id`). */
export interface WebRoute {
  path: string;
  page: (params: Record<string, string>) => ReactNode;
}

/** A link in the top bar; `admin` links show only to a signed-in admin. */
export interface NavLink {
  href: string;
  label: string;
  admin?: boolean;
}

/** What the lobby's create form gives a module's own config form. */
export interface CreateFormProps {
  /** Called with the config the form built, already checked against the protocol's zod schema. */
  onSubmit: (config: Record<string, unknown>) => void | Promise<void>;
  /**
   * The shell's part of the form for the config as it stands: the title, a driver per seat (open,
   * scripted or model) and the submit button. Render it inside the module's `<form>`.
   */
  footer: (config: unknown) => ReactNode;
  /**
   * For a protocol whose rooms open through a route of its own rather than POST /v1/rooms (the
   * form asks a node, and the node opens the room): the form calls this with the room it opened,
   * and the shell goes there. Such a form does not render `footer`.
   */
  opened: (roomId: string) => void;
}

/** What the generic room page gives a module's seat form. */
export interface SeatActionsProps {
  seat: string;
  /** The seat's legal actions as the server lists them. */
  legal: unknown[];
  closed: boolean;
  send: (action: unknown) => Promise<Ack>;
}

export interface WebModule {
  /** The protocol's name as the server registers it (`room.protocol`). */
  protocol: string;
  /** The room page for a room of this protocol (`/rooms/:id`; `?raw=1` still shows the generic one). */
  RoomView?: ComponentType<{ roomId: string; room: Room }>;
  /**
   * Forms for a person holding a seat in the generic room (a bid with an amount field rather than
   * raw JSON); the generic JSON action form stays below it for everything else.
   */
  SeatActions?: ComponentType<SeatActionsProps>;
  /**
   * The room in words for the generic room page, above its state: what is going on and, once the
   * room is over, its result (winner, price, standings) — read from the viewer's view. The room's
   * id lets it name the seats the server labels (useSeatLabels).
   */
  Summary?: ComponentType<{ view: unknown; status: string; roomId: string }>;
  /** Extra pages: matched before the generic routes, so a module may also claim `/rooms/:id/<sub>`. */
  routes?: readonly WebRoute[];
  nav?: readonly NavLink[];
  /**
   * The protocol's own create form (react-hook-form with a zodResolver over its config schema). A
   * protocol without one gets a form generated from the schema, starting from `createPreset`.
   */
  CreateForm?: ComponentType<CreateFormProps>;
  /**
   * The server can play this protocol's seats (its server module has a model agent or a scripted
   * cast): the create form then offers a driver per seat. Others refuse `drivers` (BAD_DRIVERS).
   */
  drivers?: boolean;
  /** Starting values for the generated create form (fields come from the protocol's config schema). */
  createPreset?: Record<string, unknown>;
  /**
   * One log entry in words ("seat 2 raises to 40"), shown above its payload wherever the log is
   * listed (live log, journal, inspector); null for an entry the module has no words for.
   */
  describeEntry?: (entry: Entry) => string | null;
  /**
   * This protocol's part of an agent's profile page (/agents/:id), given its section of
   * GET /v1/agents/:id (`detail` is the module's own); without one the page shows the section's
   * figures and rooms as a table.
   */
  ProfileSection?: ComponentType<{ section: AgentSection }>;
  /**
   * The room page's heading from the room's view when the room was given no title (a tournament:
   * its name), so a page is headed by a name, never by the room id; null: no name.
   */
  roomTitle?: (view: unknown) => string | null;
  /**
   * A new room's title from its create-form config when the admin leaves the title blank (a
   * tournament: its name; a motion: its topic), so the lobby and `db8 room list` show a name, not
   * the room id; null: none.
   */
  titleFromConfig?: (config: unknown) => string | null;
}

/** A `titleFromConfig` that names a room by one text field of its config (`topic`, `name`…). */
export const titleFromField =
  (field: string) =>
  (config: unknown): string | null => {
    const value = (config as Record<string, unknown> | null | undefined)?.[field];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
  };

/**
 * The class every module page and room view is rendered inside. A module's stylesheet puts every rule
 * under it (`.mod-<name> .chip`), so no module's CSS reaches another page.
 */
export const scopeClass = (protocol: string): string => `mod-${protocol}`;

/** Renders a module's page inside its scope (the wrapper is `display: contents`, so layout is unchanged). */
export function ModuleScope(props: { module: WebModule; children: ReactNode }) {
  return (
    <div className={`module-scope ${scopeClass(props.module.protocol)}`}>
      <Suspense fallback={<p className="muted">Loading…</p>}>{props.children}</Suspense>
    </div>
  );
}

/**
 * A module's component loaded with its page: each page's code is its own chunk, fetched on first
 * use, so the lobby does not download every protocol's room.
 */
// biome-ignore lint/suspicious/noExplicitAny: the component's own props; WebModule's slots and the pages' call sites type them.
export function lazyPage(load: () => Promise<ComponentType<any>>): ComponentType<any> {
  return lazy(async () => ({ default: await load() }));
}
