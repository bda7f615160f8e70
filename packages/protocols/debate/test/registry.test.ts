import { builtinProtocols, createProtocolRegistry, protocolByName } from '@db8/protocols';
import { debate as viaSubpath } from '@db8/protocols/debate';
import { describe, expect, it } from 'vitest';
import { debate } from '../src/index.ts';

describe('debate: registry', () => {
  it('is a builtin, found by name, and the subpath export is the same object', () => {
    expect(builtinProtocols).toContain(debate);
    expect(protocolByName('debate')).toBe(debate);
    expect(viaSubpath).toBe(debate);
    expect(createProtocolRegistry().get('debate')).toBe(debate);
  });
});
