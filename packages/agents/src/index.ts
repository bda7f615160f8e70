// @db8/agents — model providers (OpenAI-compatible, Anthropic, scripted), the council runner, and
// reference agents.
export * from './providers/index.ts';
