import { arena, arenaCast } from '@db8/arena';
import type { AnyProtocol, Cast } from '@db8/core';
import { council, councilCast } from '@db8/council';
import { debate, debateCast } from '@db8/debate';
import { deliberation, deliberationCast } from '@db8/deliberation';
import { poker, pokerCast } from '@db8/poker';
import { question, questionCast } from '@db8/question';
import { sealedBid, sealedBidCast } from '@db8/sealed-bid';

// The composition root's list of built-in protocols' pure rules: what `db8 verify` and `db8 replay`
// fold with. The server, web and CLI parts are listed beside it (server-modules.ts, cli-modules.ts,
// web/modules.ts). Adding a protocol is one package and one line in each list.

/** Every protocol db8 offers out of the box. */
export const builtinProtocols: readonly AnyProtocol[] = [
  sealedBid,
  poker,
  council,
  debate,
  question,
  deliberation,
  arena,
];

/**
 * Every built-in protocol's scripted cast (`Cast`, core's protocol/cast.ts), each kept beside its
 * rules. The privacy conformance kit (test/privacy-kit) plays each one and fails for a registered
 * protocol without a cast.
 */
export const builtinCasts: readonly Cast[] = [
  sealedBidCast,
  pokerCast,
  councilCast,
  debateCast,
  questionCast,
  deliberationCast,
  arenaCast,
];

/** The built-in protocol called `name`, or undefined. */
export function protocolByName(name: string): AnyProtocol | undefined {
  return builtinProtocols.find((p) => p.name === name);
}
