export * from './admin.ts';
export * from './common.ts';
export * from './drivers.ts';
export * from './export.ts';
export * from './keys.ts';
export * from './protocol-json.ts';
export * from './rest.ts';
export * from './ws.ts';
