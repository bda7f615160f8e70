import { privacyKitSuite } from './suite.ts';

// The privacy conformance kit, shard 2 of 2 (suite.ts deals the protocols round-robin).
privacyKitSuite(1, 2);
