import type { DeliberationView } from '../rules/index.ts';

// Code versions: the pass-rate trend (each version's rate from the sandbox's real test run, a gap
// until measured) and every version with its unified diff from the one before.

const pct = (x: number | null | undefined) =>
  x === null || x === undefined ? '–' : `${Math.round(x * 100)}%`;

const W = 480;
const H = 120;
const PAD = 24;

/** The measured versions as points of a polyline over a W × H box. */
export function trendPoints(
  versions: DeliberationView['codeVersions'],
): { version: number; x: number; y: number; rate: number }[] {
  const n = versions.length;
  return versions.flatMap((v, i) =>
    v.testPassRate === null
      ? []
      : [
          {
            version: v.version,
            rate: v.testPassRate,
            x: n === 1 ? W / 2 : PAD + (i * (W - 2 * PAD)) / (n - 1),
            y: H - PAD - v.testPassRate * (H - 2 * PAD),
          },
        ],
  );
}

function Trend({ view }: { view: DeliberationView }) {
  const pts = trendPoints(view.codeVersions);
  if (pts.length === 0) return <p className="muted small">No version measured yet.</p>;
  const first = pts[0]!;
  const last = pts.at(-1)!;
  return (
    <figure className="delib-trend">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        data-testid="delib-trend"
        role="img"
        aria-label="test pass rate by version"
      >
        {[0, 0.5, 1].map((r) => (
          <g key={r}>
            <line
              className="grid"
              x1={PAD}
              x2={W - PAD}
              y1={H - PAD - r * (H - 2 * PAD)}
              y2={H - PAD - r * (H - 2 * PAD)}
            />
            <text className="axis" x={2} y={H - PAD - r * (H - 2 * PAD) + 4}>
              {r * 100}
            </text>
          </g>
        ))}
        <polyline points={pts.map((p) => `${p.x},${p.y}`).join(' ')} />
        {pts.map((p) => (
          <circle
            key={p.version}
            className="point"
            data-testid="delib-trend-point"
            data-rate={p.rate}
            cx={p.x}
            cy={p.y}
            r={4}
          >
            <title>{`v${p.version}: ${pct(p.rate)}`}</title>
          </circle>
        ))}
      </svg>
      <figcaption className="muted small" data-testid="delib-trend-caption">
        Test pass rate: v{first.version} {pct(first.rate)} → v{last.version} {pct(last.rate)} over{' '}
        {pts.length} measured version{pts.length === 1 ? '' : 's'}
      </figcaption>
    </figure>
  );
}

export function CodeVersions({ view }: { view: DeliberationView }) {
  if (view.codeVersions.length === 0) return null;
  return (
    <section className="card" aria-label="code versions">
      <h2>Code versions</h2>
      <Trend view={view} />
      {view.codeVersions.map((v) => (
        <details
          key={v.version}
          className="delib-version"
          data-testid="delib-version"
          data-version={v.version}
        >
          <summary>
            v{v.version} · {v.seat} · {v.phase} (round {v.round}) · tests {pct(v.testPassRate)}
            {v.metrics.tests !== undefined ? ` (${v.metrics.passed ?? 0}/${v.metrics.tests})` : ''}
            <span className="muted" data-testid="delib-quality" data-quality={v.qualityScore ?? ''}>
              {' '}
              · quality {pct(v.qualityScore)}
              {v.metrics.cyclomatic !== undefined ? ` · cyclomatic ${v.metrics.cyclomatic}` : ''}
              {v.metrics.halsteadVolume !== undefined
                ? ` · Halstead volume ${Math.round(v.metrics.halsteadVolume)}`
                : ''}
            </span>
          </summary>
          <pre className="delib-diff" data-testid="delib-diff">
            {(v.diff ?? v.code).split('\n').map((line, i) => (
              <span
                // biome-ignore lint/suspicious/noArrayIndexKey: lines of one immutable text.
                key={i}
                className={
                  v.diff === null
                    ? ''
                    : line.startsWith('+') && !line.startsWith('+++')
                      ? 'add'
                      : line.startsWith('-') && !line.startsWith('---')
                        ? 'del'
                        : ''
                }
              >
                {line}
                {'\n'}
              </span>
            ))}
          </pre>
        </details>
      ))}
    </section>
  );
}
