import { describe, expect, it } from 'vitest';
import { natsServers } from '../src/bus/nats-client.ts';

describe('natsServers', () => {
  it('splits a comma-separated cluster list, trimming and dropping empty entries', () => {
    expect(natsServers('nats://a:4222')).toEqual(['nats://a:4222']);
    expect(natsServers(' nats://a:4222 , tls://b.example:4443,,c:4222 ')).toEqual([
      'nats://a:4222',
      'tls://b.example:4443',
      'c:4222',
    ]);
    expect(natsServers(['nats://user:pw@[::1]:4222', 'ws://d'])).toEqual([
      'nats://user:pw@[::1]:4222',
      'ws://d',
    ]);
  });
  it('an empty list or a malformed entry is BAD_CONFIG', () => {
    for (const bad of ['', ' , ', 'nats://a:4222,http://b', 'a b', 'nats://a:4222/x']) {
      expect(() => natsServers(bad), bad).toThrow(expect.objectContaining({ code: 'BAD_CONFIG' }));
    }
  });
});
