import { describe, expect, it } from 'vitest';
import { identityOf } from '../src/routes/agents.ts';
import type { PrincipalRow } from '../src/store/schemas.ts';

// What plays, from a principal's kind and metadata (GET /v1/agents/:id's `agent.kind`).

const principal = (kind: PrincipalRow['kind'], meta: Record<string, unknown>): PrincipalRow => ({
  id: 'p1',
  kind,
  displayName: 'someone',
  meta,
  createdAt: 0,
  disabledAt: null,
});

describe('identityOf', () => {
  it('a driver principal is a model with its provider and model id', () => {
    expect(identityOf(principal('agent', { driver: 'anthropic', model: 'claude-x' }))).toMatchObject({
      kind: 'model',
      provider: 'anthropic',
      model: 'claude-x',
    });
    // Older driver principals recorded no model id.
    expect(identityOf(principal('agent', { driver: 'openai' }))).toMatchObject({
      kind: 'model',
      model: null,
    });
  });

  it('the scripted cast and agents registered as scripted are scripted, with no provider', () => {
    expect(identityOf(principal('agent', { driver: 'scripted', scripted: true }))).toMatchObject({
      kind: 'scripted',
      provider: null,
    });
    expect(identityOf(principal('agent', { scripted: true })).kind).toBe('scripted');
  });

  it('a person is a person; an agent that registered itself is an outside agent', () => {
    expect(identityOf(principal('person', {})).kind).toBe('person');
    expect(identityOf(principal('agent', { framework: 'mcp' })).kind).toBe('outside');
  });
});
