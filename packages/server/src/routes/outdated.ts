import { ApiError } from '../errors.ts';
import { MIN_SUPPORTED_PROTOCOL_VERSION, PROTOCOL_VERSION } from '../schemas/common.ts';
import type { AppContext } from './context.ts';

/** 426 OUTDATED_CLIENT for a client speaking a protocol version this server no longer supports. */
export function outdatedClient(ctx: AppContext, got: string): ApiError {
  return new ApiError(426, 'OUTDATED_CLIENT', `client protocol ${got} is no longer supported`, {
    protocol_version: PROTOCOL_VERSION,
    min_supported_protocol_version: MIN_SUPPORTED_PROTOCOL_VERSION,
    skill_doc_url: ctx.skillDocUrl,
  });
}
