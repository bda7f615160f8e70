// Example protocols: small, complete protocols that exercise the runtime and teach the contract.
export * from './sealed-bid/index.ts';
