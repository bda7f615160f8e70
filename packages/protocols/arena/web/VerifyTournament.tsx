import './arena.css';
import { Badge, errorText, installedProtocols, roomClient, useParams, useQuery } from '@db8/web/kit';
import type { ArenaView } from '../rules/index.ts';
import { type ArenaVerdict, type GameCheck, verifyArenaBundles } from '../rules/verify-bundles.ts';
import type { ArenaScoring } from './index.ts';

// "Verified" for a tournament, the way the journal page shows it for one room: this browser fetches
// the tournament room's export and every match room's (GET /v1/rooms/:id/export) and runs the checks
// `db8 arena verify` runs (rules/verify-bundles.ts, one copy): signatures and tree heads, every match
// refolded and held against its reported result — its placements (and poker's hand count) recomputed
// with the game's scoring, which the composition root hands to this module (the CLI's own copy) —,
// the standings refolded from the log. A match room this server does not hold (404) was played
// elsewhere: said so, not counted as a failure.

const exportOf = async (roomId: string): Promise<string> =>
  (await roomClient(roomId).raw('GET', `/v1/rooms/${encodeURIComponent(roomId)}/export`)).text();

async function verifyHere(
  roomId: string,
  view: Partial<ArenaView>,
  scoring: ArenaScoring,
): Promise<ArenaVerdict> {
  const tournament = await exportOf(roomId);
  const matches = new Map<string, string>();
  const elsewhere = new Set<string>();
  for (const m of view.matches ?? []) {
    if (!m.result) continue;
    try {
      matches.set(m.id, await exportOf(m.result.room));
    } catch (e) {
      if ((e as { status?: number }).status === 404) elsewhere.add(m.id);
      else throw e;
    }
  }
  const games: Record<string, GameCheck> = Object.fromEntries(
    installedProtocols().map((p) => [p.name, { ...scoring[p.name], protocol: p }]),
  );
  return verifyArenaBundles({ tournament, matches, elsewhere }, games).verdict;
}

/** The verdict in one line: what was checked, or the first failing match and why. */
export function verdictText(v: ArenaVerdict): string {
  if (!v.ok) {
    const first = v.problems[0]!;
    const more = v.problems.length > 1 ? ` (+${v.problems.length - 1} more)` : '';
    return `${first.match ? `match ${first.match}` : 'the tournament'}: ${first.message}${more}`;
  }
  // A long list of foreign matches is cut: the count says how many.
  const ids = v.elsewhere.length > 3 ? `${v.elsewhere.slice(0, 3).join(', ')}, …` : v.elsewhere.join(', ');
  const away = v.elsewhere.length ? `; ${v.elsewhere.length} not on this server (${ids})` : '';
  // Nothing here to check a match against: not "verified", only the tournament's own log.
  if (v.checked === 0 && v.elsewhere.length > 0)
    return `standings recomputed; no match room is on this server to check (${v.elsewhere.length}: ${ids})`;
  return `verified: ${v.checked} matches, standings recomputed${away}`;
}

export function VerifyTournament(props: { view: Partial<ArenaView>; status: string; scoring: ArenaScoring }) {
  const { id } = useParams({ strict: false }) as { id?: string };
  // Checked once the tournament is over: a snapshot of its final log, like the journal's.
  const done = props.status === 'closed' && id !== undefined;
  const q = useQuery({
    queryKey: ['arena-verify', id ?? ''],
    queryFn: () => verifyHere(id!, props.view, props.scoring),
    enabled: done,
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (!done) return null;
  return (
    <p className="small arena-verify" role="status" data-testid="arena-verify">
      {q.isPending ? (
        <Badge tone="info">checking…</Badge>
      ) : q.error ? (
        <Badge tone="bad" testId="arena-unverified">
          ✗ could not check: {errorText(q.error)}
        </Badge>
      ) : q.data.ok && q.data.checked === 0 && q.data.elsewhere.length > 0 ? (
        <Badge tone="warn" testId="arena-unchecked">
          {verdictText(q.data)}
        </Badge>
      ) : q.data.ok ? (
        <Badge tone="ok" testId="arena-verified">
          ✓ {verdictText(q.data)}
        </Badge>
      ) : (
        <Badge tone="bad" testId="arena-unverified">
          ✗ {verdictText(q.data)}
        </Badge>
      )}{' '}
      <span className="muted">
        in this browser: every bundle's signatures and tree heads, every match refolded and held against its
        result and placements.
      </span>
    </p>
  );
}
