// The web kit: the one surface a protocol's web module imports from the app (its contract, the
// shared components and hooks). Everything else under packages/web/src is the app's own;
// test/boundaries.test.ts keeps modules to this file.

// Reads go through TanStack Query (lib/query.ts); a module names its keys in one file of its own and
// nests room-scoped ones under webKeys.room(id), which the room's live feed invalidates.
export { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
export { ActionForm } from './components/ActionForm.tsx';
export { AgentLink } from './components/AgentLink.tsx';
export { Badge, statusTone, type Tone } from './components/Badge.tsx';
export { Countdown, formatRemaining, remainingMs } from './components/Countdown.tsx';
export { CreateRoom } from './components/CreateRoom.tsx';
export { errorAt, Field, SecondsInput } from './components/create/fields.tsx';
export { EntryRow } from './components/EntryRow.tsx';
export { LiveBadge } from './components/LiveBadge.tsx';
export { HeldSeat, SeatList } from './components/SeatList.tsx';
export { type SeatLabel, SeatName, SeatWho, useSeatLabels } from './components/SeatName.tsx';
export { anonClient, api, personalClient, roomClient, tokenFor } from './lib/api.ts';
export { type ActionError, useRoomLive } from './lib/live.ts';
export { errorText, useApiQuery, useRoomInfo } from './lib/query.ts';
export { webKeys } from './lib/query-keys.ts';
export { signInHref } from './lib/return-path.ts';
export { Link, useNavigate, useParams, useSearchParams } from './lib/router.tsx';
export { useSeatActions } from './lib/seat-actions.ts';
export { getSession, useCredentials } from './lib/session.ts';
export type { Ack, AgentSection, Entry, Room, RoomState } from './lib/types.ts';
export {
  type CreateFormProps,
  lazyPage,
  type SeatActionsProps,
  scopeClass,
  titleFromField,
  type WebModule,
} from './protocols/module.tsx';
export { installedProtocols } from './protocols/registry.ts';
