/** Which agents are connected to which tables, and when each was last seen (this node only). */
export interface AgentPresence {
  connections: number;
  lastSeen: number;
  seats: Map<string, number | null>;
}

export class Presence {
  private readonly agents = new Map<string, AgentPresence>();

  constructor(private readonly clock: () => number) {}

  private get(principal: string): AgentPresence {
    let a = this.agents.get(principal);
    if (!a) {
      a = { connections: 0, lastSeen: this.clock(), seats: new Map() };
      this.agents.set(principal, a);
    }
    return a;
  }

  connect(principal: string, tableId: string, seat: number | null): void {
    const a = this.get(principal);
    a.connections++;
    a.lastSeen = this.clock();
    a.seats.set(tableId, seat);
  }

  disconnect(principal: string): void {
    const a = this.get(principal);
    a.connections = Math.max(0, a.connections - 1);
    a.lastSeen = this.clock();
  }

  touch(principal: string, tableId?: string, seat?: number | null): void {
    const a = this.get(principal);
    a.lastSeen = this.clock();
    if (tableId !== undefined) a.seats.set(tableId, seat ?? a.seats.get(tableId) ?? null);
  }

  of(principal: string): AgentPresence | undefined {
    return this.agents.get(principal);
  }
}

const byApp = new WeakMap<object, Presence>();

/** The app's poker presence (one per app context), shared by the wire codec and the admin routes. */
export function presenceOf(ctx: { clock: () => number }): Presence {
  let p = byApp.get(ctx);
  if (!p) {
    p = new Presence(ctx.clock);
    byApp.set(ctx, p);
  }
  return p;
}
