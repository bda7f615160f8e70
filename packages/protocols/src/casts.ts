import type { Cast } from '@db8/core';
import { councilCast } from '../council/src/index.ts';
import { debateCast } from '../debate/src/index.ts';
import { deliberationCast } from '../deliberation/src/index.ts';
import { sealedBidCast } from '../examples/src/index.ts';
import { pokerCast } from '../poker/src/index.ts';
import { questionCast } from '../question/src/index.ts';

/**
 * Every built-in protocol's scripted cast (`Cast`, packages/core/src/protocol/cast.ts), each kept
 * beside its protocol's rules. The privacy conformance kit (packages/server/test/privacy-kit) plays
 * each one and fails for a registered protocol without a cast: adding a protocol is one line in
 * `builtinProtocols` and one here.
 */
export const builtinCasts: readonly Cast[] = [
  sealedBidCast,
  pokerCast,
  councilCast,
  debateCast,
  questionCast,
  deliberationCast,
];

/** name → cast; two casts for one protocol is a programming error, so it throws. */
export function createCastRegistry(casts: readonly Cast[] = builtinCasts): ReadonlyMap<string, Cast> {
  const out = new Map<string, Cast>();
  for (const c of casts) {
    if (out.has(c.protocol)) throw new Error(`duplicate cast for protocol ${c.protocol}`);
    out.set(c.protocol, c);
  }
  return out;
}
