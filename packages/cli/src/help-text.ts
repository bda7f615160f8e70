// Option help shared by several commands; kept free of heavy imports so registering commands stays cheap.
export const URL_HELP = 'server base URL (default: $DB8_URL, the saved session, or http://127.0.0.1:8787)';
export const ROOM_HELP = 'room id (default: $DB8_ROOM, or the one room you joined)';
export const STORE_HELP = `--data-dir / --database-url open the store directly: PGlite in the data directory
(default $DB8_DATA_DIR or ./.db8), or PostgreSQL; the server key always comes from the data
directory. Stop an embedded server first: PGlite is single-process, and a second process on the
same data directory fails or corrupts it.`;
