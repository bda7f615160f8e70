import { createProtocolRegistry } from '@db8/core';
import { debate as viaSubpath } from '@db8/debate';
import { debate } from '@db8/debate/rules/index.ts';
import { describe, expect, it } from 'vitest';
import { builtinProtocols, protocolByName } from '../src/protocols.ts';

describe('debate: registry', () => {
  it('is a builtin, found by name, and the subpath export is the same object', () => {
    expect(builtinProtocols).toContain(debate);
    expect(protocolByName('debate')).toBe(debate);
    expect(viaSubpath).toBe(debate);
    expect(createProtocolRegistry(builtinProtocols).get('debate')).toBe(debate);
  });
});
