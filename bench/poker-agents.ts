// Child process of bench/poker-server.bench.ts: every table's agents, each its own WebSocket client
// doing what an outside agent does (register, join over REST, answer game_state). They run here, not
// in the server's process, as real agents would: their JSON parsing and zod checks are not charged
// to the server's event loop (both still share the machine's two cores).
// Protocol (IPC): the parent sends one AgentsSpec, the child answers with one AgentsResult and exits.
import { runPokerAgent, strategyNamed } from '../packages/protocols/poker/agent/index.ts';

export interface AgentsSpec {
  baseUrl: string;
  tableIds: string[];
  /** One strategy per seat. */
  mix: string[];
  maxRunMs: number;
}

export interface AgentsResult {
  latencies: number[];
  failures: string[];
}

process.once('message', async (m) => {
  const spec = m as AgentsSpec;
  const failures: string[] = [];
  const runs = await Promise.all(
    spec.tableIds.flatMap((tableId, t) =>
      spec.mix.map((name, i) =>
        runPokerAgent({
          baseUrl: spec.baseUrl,
          tableId,
          strategy: strategyNamed(name),
          name: `${name}-${t}-${i}`,
          seed: t * 10 + i,
          maxRunMs: spec.maxRunMs,
        }).catch((err: Error) => {
          failures.push(err.message);
          return null;
        }),
      ),
    ),
  );
  const result: AgentsResult = { latencies: runs.flatMap((r) => r?.latencies ?? []), failures };
  process.send?.(result, () => process.exit(0));
});
