export { canonicalBytes, canonicalize, serializeJcsNumber } from './canonical.ts';
export {
  formatJsonPath,
  JSON_MAX_DEPTH,
  JsonError,
  type JsonErrorCode,
  JsonErrorCodeSchema,
  type JsonPathSegment,
} from './errors.ts';
export { parseJson } from './parse.ts';
export { type JsonObject, type JsonValue, JsonValueSchema } from './schema.ts';
export { isWellFormed } from './wellformed.ts';
