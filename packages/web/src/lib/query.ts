import { Db8Error } from '@db8/sdk';
import {
  QueryClient,
  type QueryKey,
  type UseQueryOptions,
  type UseQueryResult,
  useQuery,
} from '@tanstack/react-query';
import type { z } from 'zod';
import { api, personalClient } from './api.ts';
import { webKeys } from './query-keys.ts';
import type { Room } from './types.ts';

// Every REST read in the web app goes through TanStack Query: one cache, one retry rule, one way
// to refresh. Pages with a live feed (the room socket, a module's own socket) have their socket events
// set or invalidate the cached reads; only reads with no feed poll (`refetchInterval`), and each
// such use says so where it is made.

/** A refusal (4xx) is the server's answer: asking again gets the same one. Anything else (network,
 *  5xx) is asked twice more, with the library's backoff. */
export function retryRead(failureCount: number, error: unknown): boolean {
  if (error instanceof Db8Error && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: retryRead } } });
}

/** What an error state shows: the API's own message (the SDK's Db8Error carries the server's). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

type ReadOptions<T> = Omit<UseQueryOptions<T, Error, T, QueryKey>, 'queryKey' | 'queryFn'>;

/** A GET of one of the server's routes as the signed-in person (or anonymously), parsed with `schema`. */
export function useApiQuery<S extends z.ZodType>(
  key: QueryKey,
  path: string,
  schema: S,
  options: ReadOptions<z.infer<S>> = {},
): UseQueryResult<z.infer<S>, Error> {
  return useQuery({
    queryKey: key,
    queryFn: () => personalClient().request(schema, 'GET', path) as Promise<z.infer<S>>,
    ...options,
  });
}

/** The room's public record (title, seats, status, seq). The room's live feed keeps it fresh. */
export function useRoomInfo(roomId: string): UseQueryResult<Room, Error> {
  return useQuery({ queryKey: webKeys.roomInfo(roomId), queryFn: () => api.getRoom(roomId) });
}
