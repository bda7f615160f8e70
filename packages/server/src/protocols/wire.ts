/**
 * A wire codec: a protocol's own frame format on the generic realtime connection (poker's seed-002
 * WebSocket: `game_state`, `your_hole`, `turn_token`, acks…). Shape owned by the realtime work of
 * issue 9; until then poker serves its frames from its module's routes.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by the realtime codec work.
export interface WireCodec {}
