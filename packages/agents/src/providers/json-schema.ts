import { z } from 'zod';

/**
 * zod → the JSON Schema providers take (tool `input_schema`/`parameters`, `json_schema.schema`).
 * `strict` says whether it meets OpenAI's strict structured-output rules: every object closed
 * (`additionalProperties: false`) with every property required. The council's schemas are written
 * to meet them (nullable instead of optional).
 */

type Json = Record<string, unknown>;

const cache = new WeakMap<z.ZodType, { jsonSchema: Json; strict: boolean }>();

/** Cached per schema object: conversion costs more than the rest of a call's local work. */
export function toWireSchema(schema: z.ZodType): { jsonSchema: Json; strict: boolean } {
  const hit = cache.get(schema);
  if (hit) return hit;
  const out = convert(schema);
  cache.set(schema, out);
  return out;
}

function convert(schema: z.ZodType): { jsonSchema: Json; strict: boolean } {
  const full = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' }) as Json;
  const { $schema: _drop, ...jsonSchema } = full;
  return { jsonSchema, strict: isStrictCompatible(jsonSchema) };
}

export function isStrictCompatible(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(isStrictCompatible);
  if (!node || typeof node !== 'object') return true;
  const n = node as Json;
  if (n.type === 'object' || n.properties) {
    const props = Object.keys((n.properties as Json | undefined) ?? {});
    const required = new Set((n.required as string[] | undefined) ?? []);
    if (n.additionalProperties !== false) return false;
    if (props.some((p) => !required.has(p))) return false;
  }
  return Object.values(n).every(isStrictCompatible);
}
