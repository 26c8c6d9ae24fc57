import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The Progress charts' colours (web/styles.css) stay apart for colour-blind readers and readable
// against the page in light and dark: the guard the design asked for (/work/wt/designs/28.md §1).

const css = readFileSync(new URL('../../../web/styles.css', import.meta.url), 'utf8');

/** Each variable's hex values in the order the stylesheet sets them: light first, then dark. */
function values(name: string): string[] {
  return [...css.matchAll(new RegExp(`--${name}:\\s*(#[0-9a-fA-F]{6})`, 'g'))].map((m) => m[1]!);
}
const theme = (names: string[], i: 0 | 1) => names.map((n) => values(n)[i]!);

const linear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const rgb = (hex: string) => [1, 3, 5].map((i) => linear(parseInt(hex.slice(i, i + 2), 16) / 255)) as [number, number, number];
const luminance = (hex: string) => {
  const [r, g, b] = rgb(hex);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

/** Machado, Oliveira & Fernandes (2009), severity 1, on linear RGB. */
const SIMULATIONS: Record<string, number[][]> = {
  protan: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deutan: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritan: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};

function lab([r, g, b]: number[]): [number, number, number] {
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  const [R, G, B] = [clamp(r!), clamp(g!), clamp(b!)];
  const x = (0.4124 * R + 0.3576 * G + 0.1805 * B) / 0.95047;
  const y = 0.2126 * R + 0.7152 * G + 0.0722 * B;
  const z = (0.0193 * R + 0.1192 * G + 0.9505 * B) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 / 116) * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}
const seen = (hex: string, matrix: number[][] | null) => {
  const c = rgb(hex);
  return lab(matrix ? matrix.map((row) => row[0]! * c[0] + row[1]! * c[1] + row[2]! * c[2]) : c);
};
/** The smallest CIELAB distance (ΔE*ab) between any two of the colours as a reader sees them. */
function minDistance(colours: string[], matrix: number[][] | null): number {
  let min = Infinity;
  for (let i = 0; i < colours.length; i++)
    for (let j = i + 1; j < colours.length; j++) {
      const [a, b] = [seen(colours[i]!, matrix), seen(colours[j]!, matrix)];
      min = Math.min(min, Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
    }
  return min;
}

const GROUPS = {
  ratings: ['r-again', 'r-hard', 'r-good', 'r-easy'],
  'credit kinds': ['k-1', 'k-2', 'k-3', 'k-4', 'k-5'],
};

describe.each([
  ['light', 0],
  ['dark', 1],
] as const)('chart colours (%s)', (_name, i) => {
  const page = theme(['surface', 'bg'], i);

  it.each(Object.entries(GROUPS))('tells the %s apart with every kind of colour vision (ΔE ≥ 20)', (_group, names) => {
    const colours = theme(names, i);
    expect(colours.every(Boolean)).toBe(true);
    for (const [vision, matrix] of [['typical', null], ...Object.entries(SIMULATIONS)] as const) {
      expect(minDistance(colours, matrix), vision).toBeGreaterThanOrEqual(20);
    }
  });

  it.each(Object.entries(GROUPS))('draws the %s at 3:1 or more against the page and the panel', (_group, names) => {
    for (const colour of theme(names, i))
      for (const background of page) expect(contrast(colour, background), `${colour} on ${background}`).toBeGreaterThanOrEqual(3);
  });
});
