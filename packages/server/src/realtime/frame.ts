import { envelopeJson } from './envelope.ts';

/**
 * One outgoing realtime message (an entry or a state), built once per viewer class and shared by
 * every subscriber of that class: the body is serialised once, and each wire form (db8's WebSocket
 * envelope, an SSE event, a codec's own message) once, as bytes, on first use.
 */
export class Frame {
  private bodyJson?: string;
  private wsText?: Buffer;
  private sseText?: Buffer;
  private encoded?: Map<string, Buffer>;

  constructor(
    readonly type: 'entry' | 'state',
    readonly roomId: string,
    readonly seq: number,
    /** The entry (already redacted for the class) or the wire State. */
    readonly body: unknown,
    /** When the server built the message (the envelope's `ts`). */
    readonly ts: number,
  ) {}

  get json(): string {
    this.bodyJson ??= JSON.stringify(this.body);
    return this.bodyJson;
  }

  /** The `/v1/ws` message: `entry` payload `{entry}`, `state` payload the State. */
  get ws(): Buffer {
    if (!this.wsText) {
      const payload = this.type === 'entry' ? `{"entry":${this.json}}` : this.json;
      this.wsText = Buffer.from(envelopeJson(this.type, this.roomId, this.seq, payload, this.ts));
    }
    return this.wsText;
  }

  /**
   * A codec's wire form of this frame under `key`, built once (as text, or already as bytes) and
   * shared by every connection of the frame's viewer class that wants the same form.
   */
  encode(key: string, build: () => string | Buffer): Buffer {
    this.encoded ??= new Map();
    let b = this.encoded.get(key);
    if (!b) {
      const built = build();
      b = typeof built === 'string' ? Buffer.from(built) : built;
      this.encoded.set(key, b);
    }
    return b;
  }

  /** The SSE event: entries carry `id: <seq>` (Last-Event-ID resumes after it); states do not. */
  get sse(): Buffer {
    if (!this.sseText) {
      const id = this.type === 'entry' ? `id: ${this.seq}\n` : '';
      this.sseText = Buffer.from(`${id}event: ${this.type}\ndata: ${this.json}\n\n`);
    }
    return this.sseText;
  }
}
