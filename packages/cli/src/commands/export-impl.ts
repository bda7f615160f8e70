// `db8 export <room>`: the room's journal bundle (JSONL) from a running server's REST export route,
// or, with --data-dir / --database-url, straight from the store.
import { writeFile } from 'node:fs/promises';
import {
  type AnyProtocol,
  canonicalize,
  type JournalRecord,
  JournalRecordSchema,
  parseJson,
  redactJournal,
  truncateCodePoints,
  type ViewerClass,
  viewerClassCovers,
  viewerOfClass,
} from '@db8/core';
import { EXIT_AUTH, EXIT_INVALID_INPUT, EXIT_IO_ERROR, EXIT_REJECTED, type ExitCode } from '../exit-codes.ts';
import { CliError, writeStdout } from '../io.ts';
import { Remote } from '../remote.ts';
import { localRuntime, openLocalStore } from './local-store.ts';

export type ExportOpts = {
  url?: string;
  token?: string;
  as: ViewerClass;
  output?: string;
  dataDir?: string;
  databaseUrl?: string;
};

const toJsonl = (records: readonly object[]) => records.map((r) => `${canonicalize(r)}\n`).join('');

async function fromStore(roomId: string, o: ExportOpts, protocols: readonly AnyProtocol[]): Promise<string> {
  const store = await openLocalStore(o);
  try {
    const rt = await localRuntime(store, o, roomId, protocols);
    const out: object[] = [];
    try {
      for await (const r of rt.export(roomId, viewerOfClass(o.as))) out.push(r);
    } catch (e) {
      const code = (e as { code?: string }).code;
      throw new CliError(
        code === 'ROOM_NOT_FOUND' ? EXIT_INVALID_INPUT : EXIT_IO_ERROR,
        (e as Error).message,
      );
    }
    await rt.drain();
    return toJsonl(out);
  } finally {
    await store.close();
  }
}

/** 401/403: the credential (missing, expired, or not granting the class); 404 and other refusals; else I/O. */
export function exitForStatus(status: number): ExitCode {
  if (status === 401 || status === 403) return EXIT_AUTH;
  if (status === 404 || status === 409 || status === 426 || status === 429) return EXIT_REJECTED;
  return EXIT_IO_ERROR;
}

/**
 * The room's bundle as the server exports it: to `--token` / $DB8_TOKEN, else the saved session's
 * seat token for the room or its principal token (db8 login), else anonymously (public). With `as`,
 * the server refuses (403) a class the token does not grant.
 */
export async function fetchExport(
  roomId: string,
  o: { url?: string; token?: string; as?: ViewerClass },
): Promise<string> {
  const remote = new Remote(o.url);
  const token = o.token ?? (process.env.DB8_TOKEN || undefined) ?? (await remote.roomClient(roomId)).token;
  const base = `${remote.url}/v1/rooms/${encodeURIComponent(roomId)}/export`;
  const url = o.as ? `${base}?as=${encodeURIComponent(o.as)}` : base;
  let res: Response;
  try {
    res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code;
    throw new CliError(
      EXIT_IO_ERROR,
      `cannot reach ${remote.url} (${cause ?? (e as Error).message}): is the server running? (db8 start, or give --url)`,
    );
  }
  const body = await res.text();
  if (!res.ok) {
    let why = truncateCodePoints(body, 200);
    try {
      const err = (JSON.parse(body) as { error?: { code?: string; message?: string } }).error;
      if (err) why = `${err.code}: ${err.message}`;
    } catch {}
    throw new CliError(exitForStatus(res.status), `GET ${url}: HTTP ${res.status} ${why}`);
  }
  return body;
}

async function fromServer(roomId: string, o: ExportOpts): Promise<string> {
  // A server that ignores ?as= exports what the token may see; narrow() below does the rest.
  return narrow(await fetchExport(roomId, o), o.as);
}

/**
 * The server exports what the token may see. Asked for less (the default, public), drop the sealed
 * payloads the wanted class may not read — leaves and signatures do not cover them. Asked for more
 * than the token grants, refuse rather than hand back a bundle of the wrong class.
 */
function narrow(text: string, want: ViewerClass): string {
  const records: JournalRecord[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const r = JournalRecordSchema.safeParse(parseJson(line));
    if (!r.success)
      throw new CliError(EXIT_INVALID_INPUT, `the server sent a record that is not part of a journal bundle`);
    records.push(r.data);
  }
  const header = records[0];
  if (header?.type !== 'db8-journal')
    throw new CliError(EXIT_INVALID_INPUT, 'the server sent no journal header');
  const have = header.viewer_class;
  if (have === want) return text;
  if (!viewerClassCovers(have, want)) {
    throw new CliError(
      EXIT_AUTH,
      `the server exported the room as ${have}; this token does not grant ${want} (give --token)`,
    );
  }
  return toJsonl(redactJournal(records, want));
}

export async function exportCommand(
  roomId: string,
  o: ExportOpts,
  protocols: readonly AnyProtocol[],
): Promise<void> {
  const direct = o.dataDir !== undefined || o.databaseUrl !== undefined;
  const text = direct ? await fromStore(roomId, o, protocols) : await fromServer(roomId, o);
  if (!o.output || o.output === '-') return writeStdout(text);
  try {
    await writeFile(o.output, text);
  } catch (e) {
    throw new CliError(EXIT_IO_ERROR, `cannot write ${o.output}: ${(e as NodeJS.ErrnoException).code ?? e}`);
  }
}
