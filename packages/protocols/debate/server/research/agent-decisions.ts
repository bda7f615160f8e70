import type { Decision } from '@db8/server/kit';
import { z } from 'zod';
import { quoteInSnapshot } from '../../rules/index.ts';
import { researchTool } from './agent-tool.ts';

/**
 * What model debaters do with the research tool (docs/debate.md, "Research"): in the research
 * phase the seat is asked which pages (up to three) it wants, and the server fetches them into the
 * room's cache; when it drafts, its prompt carries the room's cached pages — URL, sha256 and an
 * excerpt of the text — so it can cite them and quote them word for word.
 */

export const RESEARCH_URLS_MAX = 3;
const EXCERPT = 1500;

const ResearchAskSchema = z
  .object({ urls: z.array(z.url({ protocol: /^https?$/ }).max(2000)).max(RESEARCH_URLS_MAX) })
  .strict();

/** The research-phase decision of a model debater: no action, only fetches into the cache. */
export function researchDecision(
  key: string,
  ctx: { roomId: string; seat: string },
  ask: { system: string; prompt: string },
): Decision {
  return {
    key,
    async run(provider, signal) {
      const tool = researchTool();
      if (!tool || provider.scripted) return { action: null, record: null, error: null };
      const out = await provider.call({
        schemaName: 'debate_research',
        schema: ResearchAskSchema,
        description: `Up to ${RESEARCH_URLS_MAX} web pages (http/https) to fetch into the room's research cache.`,
        system: ask.system,
        prompt: `${ask.prompt}\nThis is the research phase: name up to ${RESEARCH_URLS_MAX} web pages you want to read and cite. The server fetches them (public pages only: HTML, text or JSON) into the room's shared research cache.`,
        seat: ctx.seat,
        signal,
      });
      if (!out.ok)
        return {
          action: null,
          record: out.record,
          error: { code: out.error.code, message: out.error.message },
        };
      // A refused page (private address, too large…) is the seat's own choice, not a failed call:
      // it drafts with what was fetched.
      for (const url of out.value.urls) await tool.fetch(ctx.roomId, ctx.seat, url).catch(() => null);
      return { action: null, record: out.record, error: null };
    },
  };
}

/** The room's cached pages as a prompt block ('' when there are none or no tool is bound). */
export async function researchBrief(roomId: string): Promise<string> {
  const tool = researchTool();
  if (!tool) return '';
  const pages = await tool.entries(roomId).catch(() => []);
  if (pages.length === 0) return '';
  const blocks = pages.map(
    (p) =>
      `- ${p.url} (${p.title ?? 'untitled'}; sha256 ${p.sha256.slice(0, 16)}…):\n${(p.text ?? '').slice(0, EXCERPT)}`,
  );
  return `\nThe room's research cache (pages fetched by the debaters). Cite them as {url, title, quote}; a quote must be words copied exactly from the page, which the fact-checker checks against this snapshot:\n${blocks.join('\n')}`;
}

/**
 * For a model fact-checker: each quoted citation of a submission checked against the room's cached
 * snapshot, as a prompt block ('' when nothing is quoted or no tool is bound).
 */
export async function citationChecksBrief(
  roomId: string,
  citations: readonly { url: string; quote?: string | undefined }[],
): Promise<string> {
  const tool = researchTool();
  const quoted = citations.filter((c) => c.quote);
  if (!tool || quoted.length === 0) return '';
  const pages = new Map((await tool.entries(roomId).catch(() => [])).map((p) => [p.url, p]));
  const lines = quoted.map((c) => {
    const page = pages.get(c.url);
    const result = !page
      ? 'not cached (nobody fetched the page)'
      : quoteInSnapshot(page.text ?? '', c.quote ?? '')
        ? `found in snapshot sha256 ${page.sha256.slice(0, 16)}…`
        : `NOT found in snapshot sha256 ${page.sha256.slice(0, 16)}…`;
    return `- ${c.url} "${c.quote}": ${result}`;
  });
  return `\nQuoted citations checked against the room's research cache:\n${lines.join('\n')}`;
}
