import { type CallSettings, structuredCall, type Transport } from './call.ts';
import type { CallOutcome, Provider, ProviderKind, StructuredRequest } from './types.ts';

/** A transport plus its call settings: the Provider every driver uses. */
export class ModelProvider implements Provider {
  readonly kind: ProviderKind;
  readonly profile: string;
  readonly model: string;
  readonly endpoint: string | null;
  readonly scripted: boolean;
  readonly #transport: Transport;
  readonly #settings: CallSettings;

  constructor(transport: Transport, settings: CallSettings) {
    this.#transport = transport;
    this.#settings = settings;
    this.kind = transport.kind;
    this.profile = settings.profile;
    this.model = transport.model;
    this.endpoint = settings.endpoint;
    this.scripted = settings.scripted;
  }

  call<T>(request: StructuredRequest<T>): Promise<CallOutcome<T>> {
    return structuredCall(this.#transport, this.#settings, request);
  }

  /** What may be shown about this provider: never its key. */
  toJSON(): {
    kind: ProviderKind;
    profile: string;
    model: string;
    endpoint: string | null;
    scripted: boolean;
  } {
    return {
      kind: this.kind,
      profile: this.profile,
      model: this.model,
      endpoint: this.endpoint,
      scripted: this.scripted,
    };
  }
}
