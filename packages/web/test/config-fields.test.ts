import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configTree, startingValue } from '../src/lib/config-fields.ts';
import { formTestPreset, formTestProtocol } from './fixtures/form-protocol.ts';

const protocolOf = (configSchema: z.ZodType) =>
  ({ ...formTestProtocol, configSchema }) as typeof formTestProtocol;

describe('configTree', () => {
  it('reads every kind of field, with bounds, defaults and descriptions, nested objects included', () => {
    const tree = configTree(formTestProtocol);
    if (tree.kind !== 'object') throw new Error(`root is ${tree.kind}`);
    const by = Object.fromEntries(tree.fields.map((f) => [f.name, f]));
    expect(by.name).toEqual({
      name: 'name',
      kind: 'string',
      required: true,
      description: 'what the lobby shows',
    });
    expect(by.motto).toMatchObject({ kind: 'string', required: false });
    expect(by.players).toMatchObject({ kind: 'integer', required: true, min: 2, max: 8 });
    expect(by.stake).toMatchObject({ kind: 'number', required: false, default: 1.5 });
    expect(by.limit).toMatchObject({ kind: 'integer', nullable: true, min: 1, default: null });
    expect(by.ranked).toMatchObject({ kind: 'boolean', required: true });
    expect(by.mode).toMatchObject({ kind: 'enum', options: ['quick', 'slow'] });
    expect(by.timing).toMatchObject({
      kind: 'object',
      required: true,
      fields: [
        { name: 'turn_ms', kind: 'integer', required: true, min: 100 },
        { name: 'grace_ms', kind: 'integer', required: false, default: 0 },
      ],
    });
    expect(by.tags).toMatchObject({ kind: 'array', item: { kind: 'string' }, maxItems: 3 });
    expect(by.odds).toMatchObject({ kind: 'array', item: { kind: 'number', min: 0 }, default: [] });
    // What it cannot draw as inputs is JSON: a record of anything, a union of objects.
    expect(by.extras).toMatchObject({ kind: 'json', default: {} });
    expect(by.scoring).toMatchObject({ kind: 'json', default: { kind: 'points', per_win: 3 } });
  });

  it('reads a union of string literals as a choice, and a list of objects or a non-object config as JSON', () => {
    const tree = configTree(
      protocolOf(
        z.object({
          side: z.union([z.literal('left'), z.literal('right')]),
          rows: z.array(z.object({ a: z.number() })),
        }),
      ),
    );
    expect(tree).toMatchObject({
      kind: 'object',
      fields: [
        { name: 'side', kind: 'enum', options: ['left', 'right'] },
        { name: 'rows', kind: 'json' },
      ],
    });
    expect(configTree(protocolOf(z.array(z.string())))).toMatchObject({ kind: 'array' });
    expect(configTree(protocolOf(z.union([z.string(), z.object({ a: z.number() })])))).toMatchObject({
      name: '',
      kind: 'json',
    });
  });
});

describe('startingValue', () => {
  it('starts from the preset, then the schema defaults; a required checkbox unticked, nested objects filled', () => {
    expect(startingValue(configTree(formTestProtocol), formTestPreset)).toEqual({
      name: 'Friday game',
      players: 4,
      stake: 1.5,
      limit: null,
      ranked: false,
      mode: 'slow',
      timing: { grace_ms: 0 },
      tags: ['casual'],
      odds: [],
      extras: {},
      scoring: { kind: 'points', per_win: 3 },
    });
  });
});
