import { describe, expect, it } from 'vitest';
import { CouncilConfigSchema } from '../../rules/index.ts';
import { councilConfig } from '../../server/config.ts';

// The server fills a council's run id and roster when the request leaves them out (the web form
// does), from the drivers; with no drivers every role is `remote`.

describe('council config preparation', () => {
  it('fills run id and an all-remote roster without drivers, and the config then parses', () => {
    const c = councilConfig({ question: 'Ship it?' }, { drivers: {} }) as Record<string, unknown>;
    expect(c.runId).toMatch(/^run_[0-9a-f]{16}$/);
    expect((c.roster as { provider: string }[]).map((r) => r.provider)).toEqual(Array(5).fill('remote'));
    expect(CouncilConfigSchema.safeParse(c).success).toBe(true);
  });

  it('names the scripted driver in the roster, and keeps a roster the caller gave', () => {
    const c = councilConfig(
      { question: 'q' },
      { drivers: { critic: { driver: 'model', provider: 'scripted' } } },
    ) as { roster: { role: string; scripted: boolean }[] };
    expect(c.roster.filter((r) => r.scripted).map((r) => r.role)).toEqual(['Critic']);
    const given = [{ role: 'Proponent', provider: 'x', model: 'y', scripted: false }];
    expect(
      (councilConfig({ question: 'q', roster: given, runId: 'r1' }, { drivers: {} }) as { roster: unknown })
        .roster,
    ).toBe(given);
  });
});
