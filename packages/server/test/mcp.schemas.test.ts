import type { AnyProtocol } from '@db8/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ActionSchemas } from '../src/mcp/schemas.ts';

/** Legal actions get their branch of the action schema, whatever the protocol calls its tag. */
const proto = (name: string, actionSchema: z.ZodType) => ({ name, actionSchema }) as unknown as AnyProtocol;

describe('ActionSchemas.annotate', () => {
  const schemas = new ActionSchemas(
    new Map([
      [
        'tagged',
        proto(
          'tagged',
          z.discriminatedUnion('op', [
            z.object({ op: z.literal('move'), to: z.number().int() }),
            z.object({ op: z.literal('resign') }),
          ]),
        ),
      ],
      ['plain', proto('plain', z.object({ text: z.string() }))],
    ]),
  );

  it('matches branches by their const properties, not by a known tag name', () => {
    const [move, resign, unknown] = schemas.annotate('tagged', [
      { op: 'move', min: 1 },
      { op: 'resign' },
      { op: 'x' },
    ]);
    expect((move!.schema!.properties as Record<string, { const?: string }>).op!.const).toBe('move');
    expect(move!.schema!.properties).toHaveProperty('to');
    expect((resign!.schema!.properties as Record<string, { const?: string }>).op!.const).toBe('resign');
    // No branch names it: the whole union, so the client still has the truth.
    expect(unknown!.schema).toHaveProperty('oneOf');
  });

  it('gives the whole schema for a protocol without a union, and null for an unknown protocol', () => {
    expect(schemas.annotate('plain', [{}])[0]!.schema).toMatchObject({
      type: 'object',
      properties: { text: {} },
    });
    expect(schemas.annotate('nope', [{ a: 1 }])).toEqual([{ action: { a: 1 }, schema: null }]);
  });
});
