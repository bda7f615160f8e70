import { randomBytes, randomInt } from 'node:crypto';
import type { CastMarks, CastSecret } from '@db8/core';

/**
 * The secrets a room holds, as the kit searches for them in what each viewer is served: markers
 * the cast planted (random words and numbers nobody else writes), secrets the protocol dealt
 * (poker's hole cards, every wire form of them) and the principals behind the seats.
 */
export interface Secret {
  label: string;
  /** Every form it may take in a response (a number, a word, `"Ah"` and `"AhKd"`…). */
  forms: readonly string[];
  /** The seat that wrote it (it may always read it back), once it has been sent. */
  author?: string;
  /** Public by design once the room has closed (the close entry names the seats' holders). */
  publicWhenClosed?: boolean;
}

/** Where `form` occurs in `text` as a whole token: not inside a longer word, number or hash. */
export function occurs(text: string, form: string): boolean {
  const edge = /[A-Za-z0-9_]/;
  const edgeIn = (i: number) => i >= 0 && i < text.length && edge.test(text[i]!);
  for (let i = text.indexOf(form); i !== -1; i = text.indexOf(form, i + 1)) {
    const before = edge.test(form[0]!) && edgeIn(i - 1);
    const after = edge.test(form.at(-1)!) && edgeIn(i + form.length);
    if (!before && !after) return true;
  }
  return false;
}

/** The markers of one room: `CastMarks` for its cast, and the registry of every secret it holds. */
export class RoomSecrets implements CastMarks {
  private readonly byLabel = new Map<string, Secret>();
  private readonly ints = new Set<number>();

  constructor(private readonly tag: string) {}

  text(label: string): string {
    const known = this.byLabel.get(`text:${label}`);
    if (known) return known.forms[0]!;
    const word = `mk-${this.tag}-${randomBytes(6).toString('hex')}`;
    this.byLabel.set(`text:${label}`, { label, forms: [word] });
    return word;
  }

  int(label: string, min: number, max: number): number {
    const known = this.byLabel.get(`int:${label}`);
    if (known) return Number(known.forms[0]);
    let n = randomInt(min, max + 1);
    while (this.ints.has(n)) n = randomInt(min, max + 1);
    this.ints.add(n);
    this.byLabel.set(`int:${label}`, { label, forms: [String(n)] });
    return n;
  }

  /** A dealt secret (from a checkpoint's `secrets`), kept for every later checkpoint too. */
  dealt(s: CastSecret): void {
    if (!this.byLabel.has(`dealt:${s.label}`)) this.byLabel.set(`dealt:${s.label}`, { ...s });
  }

  /** The principal holding `seat`: hidden from the other viewers while the room runs. */
  principal(seat: string, principal: string): void {
    this.byLabel.set(`principal:${seat}`, {
      label: `principal of ${seat}`,
      forms: [principal],
      author: seat,
      publicWhenClosed: true,
    });
  }

  /** `seat` sent `json` (an action): every marker in it is that seat's own. */
  sentBy(seat: string, json: string): void {
    for (const s of this.byLabel.values())
      if (s.author === undefined && s.forms.some((f) => occurs(json, f))) s.author = seat;
  }

  all(): Secret[] {
    return [...this.byLabel.values()];
  }

  /** Markers the cast planted in what seats sent (not dealt secrets, not principals). */
  planted(): Secret[] {
    return [...this.byLabel.entries()]
      .filter(([k, s]) => (k.startsWith('text:') || k.startsWith('int:')) && s.author !== undefined)
      .map(([, s]) => s);
  }
}
