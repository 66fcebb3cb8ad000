import { esc } from '../html';

/**
 * The service page's response-time chart as inline SVG, built on the server: pure geometry (scales,
 * "nice" ticks, paths that break at gaps) and the markup. No script, no inline style: colours and
 * strokes come from classes (src/render/console/css/overview.ts), dash patterns are presentation
 * attributes so series differ by more than colour.
 */

export interface ChartSeries {
  name: string;
  points: readonly { at: number; mean: number }[];
}

export interface ChartFrame {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export const FRAME: ChartFrame = { width: 720, height: 240, left: 52, right: 12, top: 10, bottom: 26 };

/** Tick values from 0 covering `max` with about `count` steps of 1, 2 or 5 × 10^n. */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const raw = max / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
  const ticks: number[] = [];
  for (let v = 0; v < max + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  if (ticks[ticks.length - 1]! < max) ticks.push(Number((ticks[ticks.length - 1]! + step).toPrecision(12)));
  return ticks;
}

export interface Scale {
  x(ms: number): number;
  y(value: number): number;
  yMax: number;
}

export function scales(from: number, to: number, yMax: number, f: ChartFrame = FRAME): Scale {
  const plotW = f.width - f.left - f.right;
  const plotH = f.height - f.top - f.bottom;
  const span = Math.max(1, to - from);
  return {
    x: (ms) => f.left + ((ms - from) / span) * plotW,
    y: (v) => f.top + plotH - (Math.max(0, v) / (yMax || 1)) * plotH,
    yMax,
  };
}

const r1 = (n: number) => Math.round(n * 10) / 10;

/** An SVG path through the points in time order; a missing bucket (more than `bucketMs` apart) starts a new piece. */
export function linePath(points: readonly { at: number; mean: number }[], s: Scale, bucketMs: number): string {
  const sorted = [...points].sort((a, b) => a.at - b.at);
  let d = '';
  sorted.forEach((p, i) => {
    const gap = i === 0 || p.at - sorted[i - 1]!.at > bucketMs;
    d += `${gap ? 'M' : 'L'}${r1(s.x(p.at))} ${r1(s.y(p.mean))}`;
  });
  // A lone point would draw nothing: a short tick makes it visible.
  return d.replace(/M([\d.]+) ([\d.]+)(?=M|$)/g, (_, x, y) => `M${x} ${y}h0.1`);
}

/** Instants for the time axis: every `stepMs` from the first multiple after `from` (UTC-aligned). */
export function timeTicks(from: number, to: number, stepMs: number): number[] {
  const out: number[] = [];
  for (let t = Math.ceil(from / stepMs) * stepMs; t <= to; t += stepMs) out.push(t);
  return out;
}

const DASHES = ['', '6 3', '2 3', '10 3 2 3', '1 2', '8 2 2 2 2 2'];

export interface ChartInput {
  title: string;
  series: readonly ChartSeries[];
  from: number;
  to: number;
  bucketMs: number;
  unit: string;
  /** Time-axis step and its label for an instant (in the viewer's zone). */
  tickMs: number;
  tickLabel(ms: number): string;
}

/** The chart, or a sentence when nothing was measured in the range. */
export function responseTimeChart(c: ChartInput): string {
  const all = c.series.flatMap((s) => s.points.map((p) => p.mean));
  if (!all.length) return `<p class="muted">No response times measured in this range.</p>`;
  const ticks = niceTicks(Math.max(...all) * 1.05);
  const s = scales(c.from, c.to, ticks[ticks.length - 1]!);
  const f = FRAME;
  const grid = ticks
    .map(
      (v) =>
        `<line class="grid" x1="${f.left}" x2="${f.width - f.right}" y1="${r1(s.y(v))}" y2="${r1(s.y(v))}"/><text class="axis" x="${f.left - 6}" y="${r1(s.y(v) + 4)}" text-anchor="end">${esc(String(v))}</text>`,
    )
    .join('');
  const xTicks = timeTicks(c.from, c.to, c.tickMs)
    .map(
      (t) =>
        `<text class="axis" x="${r1(s.x(t))}" y="${f.height - 8}" text-anchor="middle">${esc(c.tickLabel(t))}</text>`,
    )
    .join('');
  const lines = c.series
    .map((ser, i) =>
      ser.points.length
        ? `<path class="series s${i % DASHES.length}" d="${linePath(ser.points, s, c.bucketMs)}" fill="none"${DASHES[i % DASHES.length] ? ` stroke-dasharray="${DASHES[i % DASHES.length]}"` : ''}/>`
        : '',
    )
    .join('');
  const summary = c.series
    .filter((ser) => ser.points.length)
    .map(
      (ser) =>
        `${ser.name}: mean ${Math.round(ser.points.reduce((a, p) => a + p.mean, 0) / ser.points.length)} ${c.unit}, highest bucket ${Math.round(Math.max(...ser.points.map((p) => p.mean)))} ${c.unit}`,
    )
    .join('; ');
  const legend = c.series
    .map(
      (ser, i) =>
        `<li><svg class="swatch" viewBox="0 0 24 8" aria-hidden="true"><line class="series s${i % DASHES.length}" x1="0" x2="24" y1="4" y2="4"${DASHES[i % DASHES.length] ? ` stroke-dasharray="${DASHES[i % DASHES.length]}"` : ''}/></svg> ${esc(ser.name)}${ser.points.length ? '' : ' <span class="muted">(nothing measured)</span>'}</li>`,
    )
    .join('');
  return `<figure class="chart"><svg viewBox="0 0 ${f.width} ${f.height}" role="img" aria-label="${esc(`${c.title}. ${summary}.`)}">${grid}${xTicks}${lines}</svg>
<figcaption><ul class="legend">${legend}</ul><p class="muted">${esc(summary)}. Each point is the mean over ${esc(bucketWords(c.bucketMs))}; values in ${esc(c.unit)}.</p></figcaption></figure>`;
}

function bucketWords(ms: number): string {
  const min = ms / 60_000;
  return min < 60 ? `${min} minutes` : `${min / 60} hours`;
}
