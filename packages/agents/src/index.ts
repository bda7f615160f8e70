// @db8/agents — model providers (OpenAI-compatible, Anthropic, scripted), the council runner, and
// reference agents.
export * from './council/index.ts';
export * from './providers/index.ts';
