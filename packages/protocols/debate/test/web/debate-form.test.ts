import { describe, expect, it } from 'vitest';
import { SubmitActionSchema, submissionSha256 } from '../../rules/index.ts';
import {
  buildDraft,
  buildSubmit,
  type DraftForm,
  emptyForm,
  formFromDraft,
  formFromPayload,
  nextClaimId,
  problemLabel,
  validateForm,
} from '../../web/draft-form.ts';
import type { SubmitLegal } from '../../web/model.ts';

// The draft editor's validation: the protocol's SubmitActionSchema plus the room's caps from the
// legal `submit` descriptor, reported per field so the form can show them as you type.

const legal: SubmitLegal = {
  type: 'submit',
  room_id: null,
  round_id: 'abcd-r1',
  author_id: 'anon_1',
  phase: 'OPENING',
  deadline_unix: 1_800_000_000,
  version: 0,
  content_max: 4000,
  claims_max: 5,
  citations_min: 2,
  signatures: 'optional',
};

const good = (): DraftForm => ({
  content: 'Cities should price congestion.',
  claims: [
    {
      id: 'c1',
      text: 'Congestion pricing cut traffic in Stockholm',
      confidence: '80',
      support: [{ kind: 'citation', ref: 'https://example.org/stockholm' }],
    },
  ],
  citations: [
    { url: 'https://example.org/stockholm', title: 'Stockholm trial', quote: '  traffic fell by a fifth ' },
    { url: 'http://example.com/london', title: '', quote: '' },
  ],
});

describe('validateForm', () => {
  it('accepts a complete form and builds the action the protocol parses', () => {
    const v = validateForm(good(), legal, 'room_x', 'nonce-1');
    expect(v.problems).toEqual({});
    expect(v.ok).toBe(true);
    const action = v.action!;
    expect(SubmitActionSchema.parse(action)).toEqual(action);
    // A config without a room id means the server's room id is the one to sign.
    expect(action.room_id).toBe('room_x');
    // A quote is sent trimmed (and signed); an empty one is left out.
    expect(action.citations).toEqual([
      { url: 'https://example.org/stockholm', title: 'Stockholm trial', quote: 'traffic fell by a fifth' },
      { url: 'http://example.com/london' },
    ]);
    expect(action).toMatchObject({
      round_id: 'abcd-r1',
      author_id: 'anon_1',
      phase: 'OPENING',
      client_nonce: 'nonce-1',
    });
    expect(action.claims[0]!.confidence).toBe(80);
    // A blank title is left out, not sent as "".
    expect(action.citations[1]).toEqual({ url: 'http://example.com/london' });
  });

  it('uses the room id the config names when there is one', () => {
    expect(validateForm(good(), { ...legal, room_id: 'room_cfg' }, 'room_x').action?.room_id).toBe(
      'room_cfg',
    );
  });

  it('reports each empty required field of a fresh form', () => {
    const v = validateForm(emptyForm(2), legal, 'room_x');
    expect(v.ok).toBe(false);
    expect(Object.keys(v.problems).sort()).toEqual([
      'citations.0.url',
      'citations.1.url',
      'claims.0.text',
      'content',
    ]);
    expect(v.problems.content).toBe('required');
    expect(v.problems['claims.0.text']).toBe('at least 3 characters');
    expect(v.problems['citations.0.url']).toBe('an http(s) URL');
  });

  it('refuses non-http URLs, bad confidences and duplicate claim ids', () => {
    const f = good();
    f.citations[0]!.url = 'ftp://example.org/x';
    f.claims[0]!.confidence = '101';
    f.claims.push({ ...f.claims[0]!, confidence: 'lots' });
    const v = validateForm(f, legal, 'room_x');
    expect(v.problems['citations.0.url']).toBe('an http(s) URL');
    expect(v.problems['claims.0.confidence']).toBe('a whole number from 0 to 100');
    expect(v.problems['claims.1.confidence']).toBe('a whole number from 0 to 100');
    expect(v.problems['claims.1.id']).toBe('duplicate claim id c1');
  });

  it("applies the room's stricter caps from the legal descriptor", () => {
    const f = good();
    f.claims.push({ ...f.claims[0]!, id: 'c2' });
    const strict = { ...legal, content_max: 10, claims_max: 1, citations_min: 3 };
    const v = validateForm(f, strict, 'room_x');
    expect(v.problems).toMatchObject({
      content: 'at most 10 characters',
      claims: 'at most 1 claims in this room',
      citations: 'at least 3 citations in this room',
    });
    // The same form is fine under the seed's caps.
    expect(validateForm(f, legal, 'room_x').ok).toBe(true);
  });

  it("enforces the seed's hard caps even when the room's are looser", () => {
    const f = good();
    f.content = 'x'.repeat(4001);
    expect(validateForm(f, { ...legal, content_max: 9000 }, 'room_x').problems.content).toBe(
      'at most 4000 characters',
    );
  });
});

describe('form round trips', () => {
  it('a submitted payload reloads into a form that rebuilds the same canonical bytes', () => {
    const first = buildSubmit(good(), legal, 'room_x', 'n1');
    const again = buildSubmit(formFromPayload(first), legal, 'room_x', 'n2');
    expect(submissionSha256(again)).toBe(submissionSha256(first));
  });

  it('a draft keeps only the parts that are already well-formed, and reloads', () => {
    const f = good();
    f.claims[0]!.text = 'ab';
    f.claims[0]!.confidence = '7';
    f.citations.push({ url: '', title: '', quote: '' });
    const d = buildDraft(f);
    expect(d.claims[0]).toEqual({
      id: 'c1',
      support: [{ kind: 'citation', ref: 'https://example.org/stockholm' }],
      confidence: 7,
    });
    expect(d.citations).toHaveLength(2);
    const back = formFromDraft(d);
    expect(back.claims[0]).toMatchObject({ id: 'c1', text: '', confidence: '7' });
    expect(back.content).toBe(f.content);
  });
});

describe('helpers', () => {
  it('nextClaimId fills the first gap', () => {
    const c = (id: string) => ({ id, text: '', confidence: '', support: [] });
    expect(nextClaimId([c('c1'), c('c2')])).toBe('c3');
    expect(nextClaimId([c('c2'), c('c3')])).toBe('c1');
  });
  it('problemLabel names fields for people', () => {
    expect(problemLabel('claims.1.support.0.ref')).toBe('claim 2, support 1');
    expect(problemLabel('citations.2.url')).toBe('citation 3 url');
    expect(problemLabel('content')).toBe('content');
  });
});
