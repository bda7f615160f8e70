import { randomBytes } from 'node:crypto';
import { type AnyProtocol, genesisPayload } from '@db8/core';
import type { Store } from '../store/store.ts';
import { asJson, BatchPlan } from './batch-plan.ts';
import { runtimeError } from './errors.ts';
import { protocolCall } from './ops.ts';
import { FoldedRoom } from './room.ts';

const ROOM_ID = /^[A-Za-z0-9_-]{1,128}$/;
const SEED = /^[0-9a-f]{64}$/;

export interface CreateInput {
  config: unknown;
  title?: string;
  id?: string;
  seed?: string;
  now?: number;
}

/**
 * A new room's genesis, planned and not yet written: the config checked against the protocol's
 * schema, the id and seed checked (or drawn), the seats and the set-up state folded.
 */
export function planCreate(p: AnyProtocol, input: CreateInput, store: Store, clock: () => number) {
  const parsed = p.configSchema.safeParse(input.config);
  if (!parsed.success) {
    throw runtimeError(
      'BAD_CONFIG',
      `config does not match the ${p.name} schema`,
      parsed.error.issues
        .slice(0, 20)
        .map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
    );
  }
  let config: ReturnType<typeof asJson>;
  try {
    config = asJson(parsed.data);
  } catch (err) {
    throw runtimeError('BAD_CONFIG', `config is not JSON: ${(err as Error).message}`);
  }
  const id = input.id ?? `room_${randomBytes(10).toString('hex')}`;
  if (!ROOM_ID.test(id)) throw runtimeError('BAD_CONFIG', 'a room id is 1-128 letters, digits, _ or -');
  if (input.seed !== undefined && !SEED.test(input.seed))
    throw runtimeError('BAD_CONFIG', 'a room seed is 64 hex digits');
  config = withRoomId(config, id);
  const seats = protocolCall('seats', () => p.seats(config)).map((s) => ({ id: s.id, role: s.role }));
  const seed = input.seed ?? randomBytes(32).toString('hex');
  const empty = FoldedRoom.empty({ id, protocol: p, protocolVersion: p.version, config, seats, seed });
  const plan = new BatchPlan(empty.fork(), store, clock);
  const ts = plan.ts(input.now);
  plan.push({
    kind: 'genesis',
    actor: 'system',
    payload: genesisPayload({
      protocol: p.name,
      version: p.version,
      config,
      seats,
      seed,
      ...(input.title !== undefined ? { title: input.title } : {}),
    }),
    ts,
    milestone: 'genesis',
  });
  plan.memo.state = protocolCall('setup', () => p.setup(config, { seats, seed, now: ts }));
  return { id, config, seats, seed, empty, plan, ts };
}

/**
 * A config that has a `room_id` member left null is given the new room's id before setup, so the
 * protocol can bind signatures and certificate principals (`<seat>@<room_id>`) to this room. The
 * id is the server's to assign: a config naming one itself is refused.
 */
function withRoomId<C>(config: C, id: string): C {
  if (config === null || typeof config !== 'object' || Array.isArray(config) || !('room_id' in config)) {
    return config;
  }
  if ((config as { room_id: unknown }).room_id !== null) {
    throw runtimeError('BAD_CONFIG', 'room_id is assigned by the server: leave it out (or null)', [
      { path: 'room_id', message: 'assigned by the server' },
    ]);
  }
  return { ...config, room_id: id } as C;
}
