import { createHash } from 'node:crypto';
import {
  type AnyProtocol,
  canonicalize,
  canSee,
  journalEntries,
  type ProtocolLookup,
  parseJournalText,
  redactEntry,
  refoldLog,
  type StoredEntry,
  stateHash,
  type Viewer,
  verifyBundleText,
} from '@db8/core';
import { occurs, type Secret } from './markers.ts';
import type { Delivery } from './probe.ts';
import type { KitViewer } from './viewers.ts';

/** The room as the server holds it at a checkpoint: what every delivery is compared with. */
export interface Truth {
  protocol: AnyProtocol;
  registry: ProtocolLookup;
  /** Every entry as stored (sealed payloads included), by seq. */
  stored: readonly StoredEntry[];
  /** The folded state, unredacted. */
  state: unknown;
  seed: string;
  closed: boolean;
  /** The server's note verifier key: exports must verify against it. */
  pinnedKey: string;
  secrets: readonly Secret[];
}

export interface Finding {
  checkpoint: string;
  viewer: string;
  path: string;
  what: string;
}

const json = (x: unknown): unknown => JSON.parse(JSON.stringify(x ?? null));

/** What `protocol.view` shows `v` now, as JSON (what every view a path serves must equal). */
export function expectedView(truth: Truth, v: KitViewer): unknown {
  return json(truth.protocol.view(truth.state, v.viewer));
}

/**
 * The secrets `v` may not be served now: not the admin's (an admin sees everything), not what `v`
 * wrote itself, not what the room made public by closing, and not what `v`'s own view shows.
 */
export function forbiddenFor(truth: Truth, v: KitViewer, viewText: string): Secret[] {
  if (v.viewer.kind === 'admin') return [];
  const seat = v.viewer.kind === 'seat' ? v.viewer.seat : null;
  return truth.secrets.filter(
    (s) =>
      !(seat !== null && s.author === seat) &&
      !(s.publicWhenClosed && truth.closed) &&
      !s.forms.some((f) => occurs(viewText, f)),
  );
}

/** Each stored entry as a viewer class may see it, canonical, computed once per checkpoint. */
const expected = new WeakMap<Truth, Map<string, string>>();
function expectedEntry(truth: Truth, seq: number, as: Viewer): string {
  let m = expected.get(truth);
  if (!m) {
    m = new Map();
    expected.set(truth, m);
  }
  const key = `${seq} ${JSON.stringify(as)}`;
  let c = m.get(key);
  if (c === undefined) {
    c = canonicalize(json(redactEntry(truth.stored[seq]!, as)) as never);
    m.set(key, c);
  }
  return c;
}

/** Bundle checks are the costly part; identical bundles (up to the export time) are checked once. */
const bundleVerdicts = new Map<string, string[]>();

function checkBundle(truth: Truth, text: string, admin: boolean): string[] {
  const key = createHash('sha256')
    .update(text.replace(/"exported_at":"[^"]*"/, ''))
    .update(String(admin))
    .digest('hex');
  const known = bundleVerdicts.get(key);
  if (known) return known;
  const out: string[] = [];
  const v = verifyBundleText(text, { pinnedKey: truth.pinnedKey });
  if (!v.ok) out.push(`the bundle does not verify: ${v.firstFailure?.code} ${v.firstFailure?.message}`);
  else if (v.entries !== truth.stored.length)
    out.push(`the bundle verifies ${v.entries} entries, the room has ${truth.stored.length}`);
  const entries = journalEntries(parseJournalText(text).records.map((r) => r.value));
  const f = refoldLog(entries, truth.registry, { seed: truth.seed });
  if (f.problems.length > 0) out.push(`the bundle does not refold: ${f.problems[0]}`);
  else if (f.skipped === undefined && f.stateHash !== stateHash(truth.state))
    out.push(`the bundle refolds to state ${f.stateHash}, the room's is ${stateHash(truth.state)}`);
  else if (f.skipped !== undefined && admin) out.push(`the admin bundle does not refold: ${f.skipped}`);
  bundleVerdicts.set(key, out);
  return out;
}

/**
 * Checks one delivery to `v`: no secret `v` may not see in anything it was served; every sealed
 * payload served is one `v` may read; events made from views hold no hash the view hides; every entry is exactly `redactEntry(stored, class asked
 * for)`; every view is exactly `protocol.view(state, v)`; every bundle verifies and refolds.
 */
export function checkDelivery(
  truth: Truth,
  v: KitViewer,
  d: Delivery,
  view: { canonical: string; text: string },
): { leaks: string[]; problems: string[] } {
  const leaks: string[] = [];
  const problems: string[] = [];
  for (const s of forbiddenFor(truth, v, view.text)) {
    const form = s.forms.find((f) => !d.echo?.includes(f) && occurs(d.text, f));
    if (form !== undefined) leaks.push(`${s.label} (${form})`);
  }
  // Events made from the viewer's views (SSE /events) say nothing the view does not: every hash in
  // them (a submission's canonical_sha256, a chain head) is one the view shows this viewer.
  if (d.fromView) {
    for (const h of new Set(d.text.match(/\b[0-9a-f]{64}\b/g) ?? []))
      if (!view.text.includes(h)) leaks.push(`a hash its view does not show (${h.slice(0, 16)}…)`);
  }
  for (const raw of d.entries?.list ?? []) {
    const e = raw as StoredEntry;
    const stored = truth.stored[e.seq];
    if (!stored) {
      problems.push(`entry ${e.seq} is not in the room's log`);
      continue;
    }
    if (e.sealed && !canSee(stored.vis, v.viewer))
      leaks.push(`the sealed payload of entry ${e.seq} (${JSON.stringify(stored.vis)})`);
    if (canonicalize(e as never) !== expectedEntry(truth, e.seq, d.entries!.as))
      problems.push(`entry ${e.seq} is not the stored entry as ${JSON.stringify(d.entries!.as)} may see it`);
  }
  for (const got of d.views ?? []) {
    if (canonicalize(got as never) !== view.canonical)
      problems.push('a view that is not protocol.view(state, viewer)');
  }
  if (d.bundle !== undefined) {
    const admin = d.entries?.as.kind === 'admin';
    problems.push(...checkBundle(truth, d.bundle, admin));
  }
  return { leaks, problems };
}
