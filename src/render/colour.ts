/**
 * The palettes of pictures, the same in every medium (page, SVG, TikZ): tile k gets a colour
 * (a fixed palette of ten, then golden-angle hues), entry i of a tile of n entries an opacity
 * from 1 down to 0.28; thread t of a TV picture print_latex's colour t mod 8 (the CLI's `mma`,
 * `copy` and `show` pictures and the page's atoms and linear panels).
 */

/** print_latex's eight thread colours (neighbouring threads differ). */
export const THREAD_COLOURS: readonly string[] = ['#afafff', '#afffaf', '#ffafaf', '#ffffaf', '#afffff', '#ffafff', '#d7d7d7', '#ffd7af'];

/**
 * The colour (#rrggbb) of thread t: t mod 8 in print_latex's palette.
 * @example threadColour(9) // '#afffaf'
 */
export const threadColour = (t: number): string => THREAD_COLOURS[t % THREAD_COLOURS.length]!;

const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#b07aa1', '#76b7b2', '#edc948', '#9c755f', '#ff9da7', '#bab0ac'];

/** #rrggbb of the colour of hue h (degrees), saturation and lightness in [0, 1] (CSS hsl()). */
export function hslHex(h: number, sat: number, l: number): string {
  const a = sat * Math.min(l, 1 - l);
  const f = (n: number): string => {
    const k = (n + h / 30) % 12;
    const c = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

/**
 * The colour (#rrggbb) of tile k ≥ 0: the palette, then golden-angle hues.
 * @example tileColour(0) // '#4e79a7'
 */
export function tileColour(k: number): string {
  if (k < PALETTE.length) return PALETTE[k]!;
  return hslHex((k * 137.508) % 360, 0.62, 0.52);
}

/**
 * Whether a label on colour c (#rrggbb) at opacity op over white reads better in white
 * (relative luminance below ½).
 * @example darkBackground('#4e79a7', 1) // true
 */
export function darkBackground(c: string, op: number): boolean {
  const v = [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16) / 255).map((x) => x * op + (1 - op));
  const lum = 0.2126 * v[0]! + 0.7152 * v[1]! + 0.0722 * v[2]!;
  return lum < 0.5;
}

/**
 * The opacity of entry i of a tile of n entries: 1 for the first, falling linearly to 0.28.
 * @example entryOpacity(0, 4) // 1
 */
export function entryOpacity(i: number, n: number): number {
  if (n <= 1) return 1;
  return 1 - (0.72 * i) / (n - 1);
}
