// The generic db8 command line, composed with protocols by the `db8` package (packages/app).
export { buildProgram, main } from './main.ts';
export type { Product } from './product.ts';
export type { CliModule } from './protocols/module.ts';
