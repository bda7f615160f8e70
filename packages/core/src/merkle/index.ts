// RFC 6962 Merkle trees: hashing, an incremental in-memory log, and proof verifiers.
export { emptyRoot, HASH_SIZE, leafHash, nodeHash } from './hash.ts';
export { MerkleLog } from './log.ts';
export { rootOf } from './root.ts';
export {
  checkConsistency,
  checkInclusion,
  MerkleProofError,
  type MerkleProofErrorCode,
  rootFromConsistencyProof,
  rootFromInclusionProof,
  verifyConsistency,
  verifyInclusion,
} from './verify.ts';
