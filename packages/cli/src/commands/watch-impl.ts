// `db8 watch <room>`: tail a room over the SDK's reconnecting socket — one line per entry, a banner
// when the phase, deadline or your turn changes — until the room closes (exit 0) or Ctrl-C (exit 0).
import { writeStdout } from '../io.ts';
import { explain, Remote } from '../remote.ts';
import {
  type Banner,
  bannerLine,
  bannerOf,
  entryLine,
  resultLine,
  resultOf,
  sameBanner,
} from '../watch-format.ts';

export interface WatchOptions {
  url?: string;
  since?: number;
  live?: boolean;
  json?: boolean;
}

export async function watch(roomId: string, o: WatchOptions): Promise<void> {
  const remote = new Remote(o.url);
  const c = await remote.roomClient(roomId);
  const ctx = { roomId };
  const room = await remote.call(() => c.getRoom(roomId), ctx);
  const since = o.since ?? (o.live ? room.seq : -1);
  const ac = new AbortController();
  const stop = () => ac.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const out = (line: string) => writeStdout(`${line}\n`);
  if (!o.json) {
    await out(
      `── watching ${roomId} (${room.protocol}${room.title ? `, "${room.title}"` : ''}) from seq ${since + 1}; Ctrl-C to stop`,
    );
  }
  let last: Banner | null = null;
  let result: unknown;
  try {
    // Each entry once, in order, across reconnects; a refusal (bad token, gone room) throws.
    for await (const ev of c.follow(roomId, { since, signal: ac.signal })) {
      if (ev.event === 'entry') {
        const e = ev.entry;
        const r = resultOf(e);
        if (r !== undefined) result = r;
        await out(o.json ? JSON.stringify({ event: 'entry', entry: e }) : entryLine(e));
      } else {
        const s = ev.state;
        const b = bannerOf(s);
        if (o.json) await out(JSON.stringify({ event: 'state', state: s }));
        else if (!sameBanner(last, b)) await out(bannerLine(s, Date.now()));
        last = b;
        if (s.status === 'closed') {
          if (!o.json && result !== undefined) await out(resultLine(result));
          break;
        }
      }
    }
  } catch (e) {
    if (!ac.signal.aborted) throw explain(e, remote.url, ctx);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    ac.abort(); // closes the stream, so the process can exit
  }
}
