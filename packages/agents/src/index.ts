// @db8/agents — model providers (OpenAI-compatible, Anthropic, scripted) and their budgets; each
// protocol's own agents live in its package (packages/protocols/<name>/agent).

export * from './providers/index.ts';
