import { council } from './council/index.ts';
import { debate } from './debate/index.tsx';
import { deliberation } from './deliberation/index.ts';
import type { WebModule } from './module.tsx';
import { poker } from './poker/index.tsx';
import { question } from './question/index.tsx';
import { sealedBid } from './sealed-bid/index.ts';

// Every protocol's web module, one line each. Adding a protocol's UI: a folder beside these and a line here.
export const modules: readonly WebModule[] = [debate, poker, council, sealedBid, question, deliberation];

export function moduleFor(protocol: string | undefined): WebModule | undefined {
  return modules.find((m) => m.protocol === protocol);
}
