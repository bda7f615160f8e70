export { createRng, createRngFromKey, type Rng } from './rng.ts';
