/**
 * The Progress screen's charts: SVG drawn with visx's scales and shapes, each in a figure with a
 * one-sentence description and its exact values as a table (the keyboard and screen-reader route).
 * Not interactive: no tooltip only a mouse can open. Colours are CSS variables (web/styles.css),
 * set for light and dark and told apart by colour-blind readers; the page's CSP allows no inline
 * styles, so everything is attributes. Charts take their container's width, so nothing scrolls
 * sideways at 390 px.
 */
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar, LinePath } from '@visx/shape';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

/** The width of the element the ref is on, following it as the window changes. */
function useWidth<T extends HTMLElement>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(600);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.max(240, Math.floor(entry!.contentRect.width))));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

export interface Series {
  name: string;
  /** A CSS colour, usually `var(--…)`. */
  color: string;
}

/** A chart with its title, a sentence saying what it shows, a legend and its table. */
export function ChartFigure({
  title,
  summary,
  legend,
  table,
  children,
}: {
  title: string;
  summary: string;
  legend?: readonly (Series & { dashed?: boolean })[];
  table: ReactNode;
  children: (width: number, labels: { titleId: string; descId: string }) => ReactNode;
}) {
  const id = useId();
  const [ref, width] = useWidth<HTMLDivElement>();
  const labels = { titleId: `${id}-title`, descId: `${id}-desc` };
  return (
    <figure className="chart" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`}>
        <span className="chart-title">{title}</span>
        <span className="chart-summary">{summary}</span>
      </figcaption>
      {legend && legend.length > 1 && (
        <ul className="chart-legend">
          {legend.map((s) => (
            <li key={s.name}>
              <svg width="14" height="14" aria-hidden="true">
                {s.dashed ? (
                  <line x1="0" y1="7" x2="14" y2="7" stroke={s.color} strokeWidth="2" strokeDasharray="3 2" />
                ) : (
                  <rect width="14" height="14" rx="2" fill={s.color} />
                )}
              </svg>
              {s.name}
            </li>
          ))}
        </ul>
      )}
      <div ref={ref} className="chart-body">
        {children(width, labels)}
      </div>
      <details className="chart-table">
        <summary>Show as table</summary>
        {table}
      </details>
    </figure>
  );
}

/** The `<svg>` every chart draws in: an image named by the figure's title and described by its summary. */
function ChartSvg({
  width,
  height,
  labels,
  title,
  summary,
  children,
}: {
  width: number;
  height: number;
  labels: { titleId: string; descId: string };
  title: string;
  summary: string;
  children: ReactNode;
}) {
  return (
    <svg width={width} height={height} role="img" aria-labelledby={`${labels.titleId} ${labels.descId}`}>
      <title id={labels.titleId}>{title}</title>
      <desc id={labels.descId}>{summary}</desc>
      {children}
    </svg>
  );
}

// The right margin leaves room for half of the last x label, centred under the last bar.
const MARGIN = { top: 8, right: 22, bottom: 22, left: 44 };

/** Round tick values for a 0…max axis; whole numbers only when `whole` (counts). */
function ticksFor(max: number, whole: boolean, count = 3): number[] {
  if (max <= 0) return [0];
  const raw = max / count;
  const round = [1, 2, 5, 10].map((m) => m * 10 ** Math.floor(Math.log10(raw))).find((s) => s >= raw) ?? raw;
  const step = whole ? Math.max(1, round) : round;
  return Array.from({ length: Math.floor(max / step) + 1 }, (_, i) => Math.round(i * step * 1000) / 1000);
}

function YAxis({ scale, ticks, width, format }: { scale: (v: number) => number; ticks: number[]; width: number; format: (v: number) => string }) {
  return (
    <g aria-hidden="true" className="axis">
      {ticks.map((t) => (
        <g key={t}>
          <line x1={0} x2={width} y1={scale(t)} y2={scale(t)} className="grid" />
          <text x={-6} y={scale(t)} dy="0.32em" textAnchor="end">
            {format(t)}
          </text>
        </g>
      ))}
    </g>
  );
}

/** Every n-th label, so labels never overlap at the chart's width (about 48 px each). */
const labelEvery = (count: number, width: number, labelWidth = 48) => Math.max(1, Math.ceil((count * labelWidth) / Math.max(width, 1)));

export interface StackedDatum {
  label: string;
  /** One value per series, in the series' order. */
  values: readonly number[];
}

/** Bars, stacked by series in the legend's order, with 1 px gaps in the surface colour. */
export function StackedBars({
  data,
  series,
  width,
  labels,
  title,
  summary,
  height = 180,
  format = (v: number) => String(v),
  whole = true,
}: {
  data: readonly StackedDatum[];
  series: readonly Series[];
  width: number;
  labels: { titleId: string; descId: string };
  title: string;
  summary: string;
  height?: number;
  format?: (v: number) => string;
  /** The values are counts: ticks at whole numbers. */
  whole?: boolean;
}) {
  const innerW = width - MARGIN.left - MARGIN.right;
  const innerH = height - MARGIN.top - MARGIN.bottom;
  const max = Math.max(1, ...data.map((d) => d.values.reduce((a, b) => a + b, 0)));
  const ticks = ticksFor(max, whole);
  const y = scaleLinear<number>({ domain: [0, Math.max(max, ticks.at(-1)!)], range: [innerH, 0] });
  const x = scaleBand<string>({ domain: data.map((d) => d.label), range: [0, innerW], padding: 0.2 });
  const every = labelEvery(data.length, innerW);
  return (
    <ChartSvg width={width} height={height} labels={labels} title={title} summary={summary}>
      <Group left={MARGIN.left} top={MARGIN.top}>
        <YAxis scale={y} ticks={ticks} width={innerW} format={format} />
        <g aria-hidden="true">
          {data.map((d) => {
            let base = 0;
            return d.values.map((v, i) => {
              const top = y(base + v);
              const h = y(base) - top;
              base += v;
              return v > 0 ? (
                <Bar key={`${d.label}-${i}`} x={x(d.label)} y={top} width={x.bandwidth()} height={Math.max(h, 1)} fill={series[i]!.color} className="segment" />
              ) : null;
            });
          })}
        </g>
        <g aria-hidden="true" className="axis">
          {data.map((d, i) =>
            (data.length - 1 - i) % every === 0 ? (
              <text key={d.label} x={(x(d.label) ?? 0) + x.bandwidth() / 2} y={innerH + 15} textAnchor="middle">
                {d.label}
              </text>
            ) : null,
          )}
        </g>
      </Group>
    </ChartSvg>
  );
}

export interface LineSeries extends Series {
  dashed?: boolean;
  /** One value (or null for a gap) per x. */
  values: readonly (number | null)[];
}

/** Lines over shared x labels; y from `yDomain`. Points are marked so a single value shows. */
export function Lines({
  xLabels,
  series,
  width,
  labels,
  title,
  summary,
  yDomain,
  yTicks,
  format,
  height = 180,
  marker,
}: {
  xLabels: readonly string[];
  series: readonly LineSeries[];
  width: number;
  labels: { titleId: string; descId: string };
  title: string;
  summary: string;
  yDomain: [number, number];
  yTicks: number[];
  format: (v: number) => string;
  height?: number;
  /** An x label to mark with a vertical rule (the current setting, the best value). */
  marker?: { at: string; text: string };
}) {
  const innerW = width - MARGIN.left - MARGIN.right;
  const innerH = height - MARGIN.top - MARGIN.bottom;
  const y = scaleLinear<number>({ domain: yDomain, range: [innerH, 0], clamp: true });
  const x = scaleBand<string>({ domain: [...xLabels], range: [0, innerW], padding: 0 });
  const cx = (label: string) => (x(label) ?? 0) + x.bandwidth() / 2;
  const every = labelEvery(xLabels.length, innerW, 40);
  return (
    <ChartSvg width={width} height={height} labels={labels} title={title} summary={summary}>
      <Group left={MARGIN.left} top={MARGIN.top}>
        <YAxis scale={y} ticks={yTicks} width={innerW} format={format} />
        {marker && (
          <g aria-hidden="true" className="marker">
            <line x1={cx(marker.at)} x2={cx(marker.at)} y1={0} y2={innerH} />
            <text x={cx(marker.at) + 4} y={10} textAnchor={cx(marker.at) > innerW - 90 ? 'end' : 'start'} dx={cx(marker.at) > innerW - 90 ? -8 : 0}>
              {marker.text}
            </text>
          </g>
        )}
        <g aria-hidden="true">
          {series.map((s) => {
            const points = xLabels.map((label, i) => ({ label, v: s.values[i] ?? null }));
            return (
              <g key={s.name}>
                <LinePath
                  data={points}
                  x={(p) => cx(p.label)}
                  y={(p) => y(p.v ?? 0)}
                  defined={(p) => p.v !== null}
                  stroke={s.color}
                  strokeWidth={2}
                  strokeDasharray={s.dashed ? '5 4' : undefined}
                  fill="none"
                />
                {points.map((p) => (p.v === null ? null : <circle key={p.label} cx={cx(p.label)} cy={y(p.v)} r={2.5} fill={s.color} />))}
              </g>
            );
          })}
        </g>
        <g aria-hidden="true" className="axis">
          {xLabels.map((label, i) =>
            (xLabels.length - 1 - i) % every === 0 ? (
              <text key={label} x={cx(label)} y={innerH + 15} textAnchor="middle">
                {label}
              </text>
            ) : null,
          )}
        </g>
      </Group>
    </ChartSvg>
  );
}

/** A year of days as a calendar: one column a week (Monday on top), five shades of one hue. */
export function CalendarHeatmap({
  days,
  width,
  labels,
  title,
  summary,
}: {
  days: readonly { date: string; count: number }[];
  width: number;
  labels: { titleId: string; descId: string };
  title: string;
  summary: string;
}) {
  const left = 22;
  const first = days[0]?.date ?? '2000-01-03';
  const offset = (new Date(`${first}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday = 0
  const weeks = Math.ceil((days.length + offset) / 7);
  const cell = Math.max(4, Math.min(14, Math.floor((width - left) / weeks)));
  const height = cell * 7 + 18;
  const max = Math.max(1, ...days.map((d) => d.count));
  const level = (n: number) => (n === 0 ? 0 : Math.min(4, Math.ceil((n / max) * 4)));
  let lastMonth = '';
  // A month's name needs about 24 px: skip names that would run into the one before.
  let lastLabelWeek = -Infinity;
  const labelWeeks = Math.ceil(24 / cell);
  return (
    <ChartSvg width={Math.min(width, left + weeks * cell)} height={height} labels={labels} title={title} summary={summary}>
      <g aria-hidden="true" className="axis">
        {['Mon', 'Wed', 'Fri'].map((d, i) => (
          <text key={d} x={0} y={18 + (i * 2 + 0.5) * cell} dy="0.32em">
            {cell >= 8 ? d : d[0]}
          </text>
        ))}
      </g>
      <g aria-hidden="true" transform={`translate(${left}, 16)`}>
        {days.map((d, i) => {
          const slot = i + offset;
          const week = Math.floor(slot / 7);
          const month = d.date.slice(0, 7);
          const showMonth = month !== lastMonth && slot % 7 === 0 && week - lastLabelWeek >= labelWeeks;
          if (month !== lastMonth && slot % 7 === 0) lastMonth = month;
          if (showMonth) lastLabelWeek = week;
          return (
            <g key={d.date}>
              {showMonth && week < weeks - 1 && (
                <text x={week * cell} y={-5} className="axis-month">
                  {new Date(`${d.date}T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', timeZone: 'UTC' })}
                </text>
              )}
              <rect x={week * cell} y={(slot % 7) * cell} width={cell - 1} height={cell - 1} rx={1.5} className={`heat heat-${level(d.count)}`} />
            </g>
          );
        })}
      </g>
    </ChartSvg>
  );
}

/** A simple table of rows: the chart's exact values. */
export function DataTable({ caption, head, rows }: { caption: string; head: readonly string[]; rows: readonly (readonly (string | number)[])[] }) {
  return (
    // Focusable, so a keyboard can scroll a table wider than a phone.
    <div className="table-scroll" tabIndex={0} role="region" aria-label={caption}>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              {row.map((cell, j) =>
                j === 0 ? (
                  <th key={j} scope="row">
                    {cell}
                  </th>
                ) : (
                  <td key={j}>{cell}</td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A bar chart in its figure, with its table: what most of the Progress screen's charts are. */
export function BarsFigure({
  title,
  summary,
  head,
  rows,
  data,
  series,
  height,
  whole,
}: {
  title: string;
  summary: string;
  head: readonly string[];
  rows: readonly (readonly (string | number)[])[];
  data: readonly StackedDatum[];
  series: readonly Series[];
  height?: number;
  whole?: boolean;
}) {
  return (
    <ChartFigure title={title} summary={summary} legend={series} table={<DataTable caption={title} head={head} rows={rows} />}>
      {(width, labels) => (
        <StackedBars
          data={data}
          series={series}
          width={width}
          labels={labels}
          title={title}
          summary={summary}
          {...(height ? { height } : {})}
          {...(whole === false ? { whole } : {})}
        />
      )}
    </ChartFigure>
  );
}
