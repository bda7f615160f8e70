// ensureStream when another process of the same node creates the stream between our check and our
// add: the server answers the add with "subjects overlap with an existing stream" (err_code 10065,
// seen in CI when two processes of one swarm node started together). The stream is there, so the
// call must update it and succeed rather than kill the process. The real server's part is in
// bus.nats-servers.int.test.ts; here the manager is a stand-in that gives that one answer.
import { describe, expect, it } from 'vitest';
import { JetStreamLog } from '../src/bus/jetstream.ts';

function managerWithRacingPeer() {
  let exists = false;
  const calls: string[] = [];
  const jsm = {
    streams: {
      info: async () => {
        calls.push('info');
        if (!exists) throw new Error('stream not found');
        return {};
      },
      add: async () => {
        calls.push('add');
        exists = true; // the peer's add landed first
        throw new Error('subjects overlap with an existing stream');
      },
      update: async () => {
        calls.push('update');
        return {};
      },
    },
  };
  return { jsm, calls };
}

const nats = { nanos: (ms: number) => ms * 1_000_000 };
const spec = { name: 'S', subjects: ['p.>'], maxAgeMs: 60_000 };

describe('JetStreamLog.ensureStream', () => {
  it('a lost create race updates the stream the peer made', async () => {
    const { jsm, calls } = managerWithRacingPeer();
    // biome-ignore lint/suspicious/noExplicitAny: the private constructor takes the client's parts.
    const log = new (JetStreamLog as any)({}, jsm, {}, nats) as JetStreamLog;
    await log.ensureStream(spec);
    expect(calls).toEqual(['info', 'add', 'info', 'update']);
  });

  it('an add refused for another reason, with no stream after it, still throws', async () => {
    const { jsm } = managerWithRacingPeer();
    jsm.streams.add = async () => {
      throw new Error('insufficient resources');
    };
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    const log = new (JetStreamLog as any)({}, jsm, {}, nats) as JetStreamLog;
    await expect(log.ensureStream(spec)).rejects.toThrow('insufficient resources');
  });
});
