import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { PATIENCE_MS } from '../../../../test/patience.ts';

// A newcomer's walk through one protocol, from the lobby's create form to the finished room, for
// the newcomer suite (newcomer.int.test.ts): each takes a signed-in admin page already on the lobby
// and `snap(step)` for its screenshots, and leaves the page on the finished room. Seats are played by
// the server's scripted drivers where the form offers them ("all scripted"); the question, which has
// no seats, is answered, summarised and closed by the newcomer in the page.

export type Walk = (page: Page, snap: (step: string) => Promise<void>) => Promise<void>;

const wait = { timeout: PATIENCE_MS };

/** Picks the protocol in the lobby's create form and waits for its own form. */
async function pick(page: Page, protocol: string, ready: string): Promise<void> {
  await page.locator('#cr-protocol').selectOption(protocol);
  await page.locator(ready).waitFor();
}

/** Submits the create form and returns the room it opened. */
async function create(page: Page, button = 'Create room'): Promise<string> {
  await page.getByRole('button', { name: button }).click();
  await page.waitForURL(/\/rooms\/[^/?]+$/, wait);
  return decodeURIComponent(page.url().split('/rooms/')[1]!);
}

/** A top-of-page screenshot (a full-page shot of a scrolled page draws the sticky top bar mid-page). */
async function top(page: Page, snap: (step: string) => Promise<void>, step: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await snap(step);
}

/** A council of five scripted roles (and the scripted operator) to its final packet. */
export const council: Walk = async (page, snap) => {
  await pick(page, 'council', '#council-question');
  await page.locator('#council-question').fill('Should the team adopt a four-day week?');
  await page
    .locator('#council-context')
    .fill('Twelve engineers, on call in turns; the product ships weekly.');
  await page.locator('#council-window').fill('120');
  await page.getByRole('button', { name: 'all scripted' }).click();
  await expect.poll(() => page.locator('#drv-judge').inputValue()).toBe('scripted');
  await page.locator('#cr-title').fill('Four-day week');
  await top(page, snap, 'form');
  await create(page);
  // The run ends in its packet: the stepper completed, the decision and who owns each action.
  await page.getByTestId('step-end').and(page.locator('[data-state="completed"]')).waitFor(wait);
  await page.getByTestId('packet').waitFor();
  expect(await page.getByTestId('packet-decision').textContent()).toContain('[scripted]');
  expect(await page.getByTestId('council-question').textContent()).toContain('four-day week');
  const owners = await page.getByTestId('action-owner').allTextContents();
  expect(owners.length).toBeGreaterThan(0);
  await top(page, snap, 'finished');
};

/** A text deliberation of four scripted seats, one round, to its answer. */
export const deliberation: Walk = async (page, snap) => {
  await pick(page, 'deliberation', '#delib-topic');
  await page.locator('#delib-topic').fill('Pick a cache eviction policy for the session store');
  await page.locator('#delib-confidence').fill('0.95');
  await page.locator('#delib-rounds').fill('1');
  await page.locator('#delib-consensus').fill('0.5');
  await page.getByRole('button', { name: 'all scripted' }).click();
  await expect.poll(() => page.locator('#drv-architect').inputValue()).toBe('scripted');
  await page.locator('#cr-title').fill('Cache eviction');
  await top(page, snap, 'form');
  await create(page);
  await page.getByTestId('delib-status').filter({ hasText: 'completed' }).waitFor(wait);
  const answer = page.getByTestId('delib-answer');
  await answer.waitFor();
  // The winner is named by its seat, not a principal id.
  expect(await answer.getByTestId('delib-outcome').textContent()).toMatch(
    /architect|critic|reviewer|optimizer/,
  );
  await top(page, snap, 'finished');
};

/**
 * A question asked from the lobby (it opens its room through the swarm), answered, the answer
 * accepted, a final summary published and the question closed on it — all by the newcomer.
 */
export const question: Walk = async (page, snap) => {
  await pick(page, 'question', '#q-text');
  await page.locator('#q-text').fill('Which cache should the session service use?');
  await page.locator('#q-tags').fill('newcomer, storage');
  await top(page, snap, 'form');
  await create(page, 'Ask and open its room');
  await page.getByTestId('q-text').filter({ hasText: 'session service' }).waitFor(wait);
  await page.locator('#q-msg-text').fill('A write-through LRU: the working set fits in memory.');
  await page.getByRole('button', { name: 'Send' }).click();
  const message = page.getByTestId('q-message');
  await message.waitFor(wait);
  await message.getByRole('button', { name: 'Accept' }).click();
  await message.getByTestId('verdict').waitFor(wait);
  await page.locator('#q-sum-facts').fill('The working set fits in memory');
  await page.locator('#q-sum-recommendations').fill('Ship the LRU behind a flag');
  await page.locator('#q-sum-unc').fill('0.2');
  await page.locator('#q-sum-status').selectOption('final');
  await page.getByRole('button', { name: 'Publish summary' }).click();
  await page.getByTestId('q-summary').waitFor(wait);
  await page.locator('#q-close-res').selectOption('accepted-answer');
  await page.getByRole('button', { name: 'Close the question' }).click();
  await page.getByTestId('q-close').waitFor(wait);
  expect(await page.getByTestId('q-room-status').textContent()).toBe('closed');
  expect(await page.getByTestId('q-resolution').textContent()).toBe('accepted-answer');
  expect(await page.getByTestId('q-accepted').textContent()).toContain('The working set fits in memory');
  await top(page, snap, 'finished');
};

/** A poker table of three scripted seats, two hands, to its final standings. */
export const poker: Walk = async (page, snap) => {
  await pick(page, 'poker', '#poker-seats');
  await page.locator('#poker-seats').fill('3');
  await page.locator('#poker-interval').fill('0');
  await page.locator('#poker-hands').fill('2');
  await page.getByRole('button', { name: 'all scripted' }).click();
  await expect.poll(() => page.locator('#drv-seat_2').inputValue()).toBe('scripted');
  await page.locator('#cr-title').fill('Two quick hands');
  await top(page, snap, 'form');
  await create(page);
  const standings = page.getByTestId('final-standings');
  await standings.waitFor(wait);
  expect(await page.getByTestId('standing-net').count()).toBe(3);
  // Seats are named, not principal ids.
  expect(await standings.textContent()).not.toMatch(/agt_|usr_|principal/);
  expect(await page.locator('section.countdown').count()).toBe(0);
  await top(page, snap, 'finished');
};

/** A debate with every seat scripted (two debaters, a judge, the fact-checker), to its results. */
export const debate: Walk = async (page, snap) => {
  await pick(page, 'debate', '#debate-topic');
  await page.locator('#debate-topic').fill('Cities should replace parking minimums with congestion pricing');
  for (const [k, v] of [
    ['debaters', '2'],
    ['judges', '1'],
    ['viewers', '0'],
    ['rounds', '1'],
    ['research_ms', '0'],
    ['submit_ms', '3'],
    ['verify_ms', '1'],
    ['continue_vote_ms', '1'],
    ['final_submit_ms', '3'],
    ['final_vote_ms', '2'],
    ['results_ms', '1'],
    ['reveal_ms', '1'],
  ] as const)
    await page.locator(`#debate-${k}`).fill(v);
  await page.getByRole('button', { name: 'all scripted' }).click();
  await expect.poll(() => page.locator('#drv-judge_1').inputValue()).toBe('scripted');
  await page.locator('#cr-title').fill('Parking, priced (scripted)');
  await top(page, snap, 'form');
  const id = await create(page);
  await page.getByTestId('room-status').filter({ hasText: 'closed' }).waitFor(wait);
  await page.goto(page.url().replace(/\/rooms\/.*$/, `/rooms/${encodeURIComponent(id)}/results`));
  await page.getByTestId('placement-name').first().waitFor(wait);
  await top(page, snap, 'finished');
};

/**
 * A sealed-bid auction of two bidders: the newcomer takes a seat from the room page and bids, a
 * second bidder (an agent, `bidAsAgent`) bids too, which ends the bidding; the silent auctioneer's
 * window passes (silence confirms the sale) and the result shows.
 */
export function auction(bidAsAgent: (roomId: string) => Promise<void>): Walk {
  return async (page, snap) => {
    await pick(page, 'sealed-bid', '#auction-item');
    await page.locator('#auction-item').fill('A signed first edition');
    await page.locator('#auction-bidders').fill('2');
    await page.locator('#auction-reserve').fill('100');
    await page.locator('#auction-biddingWindowMs').fill('600');
    await page.locator('#auction-revealWindowMs').fill('1');
    await page.locator('#cr-title').fill('First edition');
    await top(page, snap, 'form');
    const id = await create(page);
    await page.getByRole('button', { name: 'Join as bidder_1' }).click();
    await page.locator('#bid-amount').fill('150');
    await page.getByRole('button', { name: 'Place sealed bid' }).click();
    await page.getByTestId('bid-result').filter({ hasText: 'sealed bid of 150' }).waitFor(wait);
    await bidAsAgent(id);
    const result = page.getByTestId('auction-result');
    await result.waitFor(wait);
    expect(await result.textContent()).toMatch(/A signed first edition sold to bidder_1 for 140/);
    // A closed room shows no clock (it once drew a bare dash and "no deadline").
    expect(await page.locator('section.countdown').count()).toBe(0);
    await top(page, snap, 'finished');
  };
}

/**
 * A tournament: a debate round robin of four scripted debaters of different strength, made with the
 * arena's own form and played by the server itself (each match a real debate room) to its final
 * standings, the strongest first.
 */
export const arena: Walk = async (page, snap) => {
  await pick(page, 'arena', '#arena-name');
  await page.locator('#arena-name').fill('debate cup');
  await page.locator('#arena-game').selectOption('debate');
  await page.getByRole('button', { name: 'Add an entrant' }).click();
  for (const [i, strategy] of ['evidence', 'hedge', 'sloppy', 'bluff'].entries()) {
    await page.locator(`#arena-e${i}-name`).fill(`${strategy}r`);
    await page.locator(`#arena-e${i}-strategy`).fill(strategy);
  }
  await top(page, snap, 'form');
  await create(page);
  const standings = page.getByTestId('arena-standings');
  await expect.poll(() => standings.locator('h2').textContent(), wait).toContain('final');
  // Six pairs, two games each; the house judge's fixed rules place evidence first, bluff last.
  expect(await standings.textContent()).toContain('12 of 12 matches played');
  const rows = standings.getByTestId('arena-standings-table').locator('tbody tr');
  expect(await rows.first().textContent()).toContain('evidencer');
  expect(await rows.last().textContent()).toContain('bluffr');
  await top(page, snap, 'finished');
};
