import type { RecordedRequest, ServerStep } from '@db8/agents/test/model-server.ts';
import { scriptedCouncilReply } from '../../agent/index.ts';

/**
 * Plays council roles on the model server: reads the system prompt, first user message and schema
 * from either wire format and answers with the scripted council reply, so the CLI and runner tests
 * exercise real HTTP in both formats. `override` lets a test fail or corrupt chosen turns.
 */

export interface CouncilWireRequest {
  role: string;
  schemaName: string;
  system: string;
  prompt: string;
  jsonSchema: Record<string, unknown>;
  /** True for the repair attempt (the conversation has more than one user message). */
  repair: boolean;
}

export function readCouncilRequest(rec: RecordedRequest): CouncilWireRequest {
  const b = rec.body;
  let system: string;
  let messages: { role: string; content: string }[];
  let schemaName: string;
  let jsonSchema: Record<string, unknown>;
  if (rec.wire === 'openai') {
    system = b.messages[0].content;
    messages = b.messages.slice(1);
    const rf = b.response_format?.json_schema;
    const fn = b.tools?.[0]?.function;
    schemaName = rf?.name ?? fn?.name;
    jsonSchema = rf?.schema ?? fn?.parameters;
  } else {
    system = b.system;
    messages = b.messages;
    schemaName = b.tools[0].name;
    jsonSchema = b.tools[0].input_schema;
  }
  const role = /You are the (\w+)/.exec(system)?.[1] ?? '?';
  const prompt = messages[0]?.content ?? '';
  return {
    role,
    schemaName,
    system,
    prompt,
    jsonSchema,
    repair: messages.filter((m) => m.role === 'user').length > 1,
  };
}

export function councilResponder(override?: (r: CouncilWireRequest) => ServerStep | null) {
  return (rec: RecordedRequest): ServerStep => {
    const r = readCouncilRequest(rec);
    return override?.(r) ?? { reply: scriptedCouncilReply(r) };
  };
}
