import * as vega from 'vega';
import { compile, type Config, type TopLevelSpec } from 'vega-lite';

/** The page's font stack, for chart text too. */
export const FONT_STACK = 'system-ui, -apple-system, Segoe UI, Roboto, Helvetica Neue, Arial, sans-serif';

/** Chart styling shared by every chart of the report. */
const CONFIG: Config = {
  font: FONT_STACK,
  background: 'white',
  // No ARIA label on every bar and tick: they would double the SVG's size for little use;
  // each figure carries one label of what it shows.
  aria: false,
  padding: 6,
  view: { stroke: null },
  axis: {
    labelFontSize: 11,
    titleFontSize: 11,
    titleFontWeight: 600,
    labelColor: '#475569',
    titleColor: '#334155',
    gridColor: '#eef2f7',
    domainColor: '#cbd5e1',
    tickColor: '#cbd5e1',
  },
  header: { labelFontSize: 11, labelColor: '#334155', titleFontSize: 11 },
  legend: { labelFontSize: 11, titleFontSize: 11, titleFontWeight: 600, labelColor: '#475569', titleColor: '#334155' },
  title: {
    fontSize: 13,
    fontWeight: 600,
    anchor: 'start',
    color: '#0f172a',
    subtitleColor: '#64748b',
    subtitleFontSize: 11,
  },
};

/** A chart of the report: its SVG, rendered in Node, and the Vega-Lite spec it came from. */
export interface RenderedChart {
  /** Unique within the page; prefixes the SVG's own ids. */
  readonly id: string;
  /** What the chart shows, for the figure's label. */
  readonly label: string;
  readonly svg: string;
  /** The Vega-Lite spec with its (aggregated) data inline, as embedded in the page. */
  readonly spec: TopLevelSpec;
  /** What Vega-Lite and Vega warned about while compiling and rendering (kept off the terminal). */
  readonly warnings: readonly string[];
}

/** A vega logger that keeps warnings and errors instead of printing them. */
function collectingLogger(messages: string[]): vega.LoggerInterface {
  let level = vega.Warn;
  const keep = (...args: unknown[]) => void messages.push(args.map(String).join(' '));
  const logger: vega.LoggerInterface = {
    level: (value?: number) => (value === undefined ? level : ((level = value), logger)),
    error: (...args: unknown[]) => (keep(...args), logger),
    warn: (...args: unknown[]) => (keep(...args), logger),
    info: () => logger,
    debug: () => logger,
  };
  return logger;
}

/**
 * Compiles a Vega-Lite spec with the report's styling and renders it to SVG with vega's
 * headless renderer (no DOM, no canvas, no network: data is inline). The same spec
 * always gives the same SVG.
 */
export async function renderChart(id: string, label: string, spec: TopLevelSpec): Promise<RenderedChart> {
  const full = { $schema: 'https://vega.github.io/schema/vega-lite/v6.json', ...spec, config: CONFIG } as TopLevelSpec;
  const warnings: string[] = [];
  const logger = collectingLogger(warnings);
  const view = new vega.View(vega.parse(compile(full, { logger }).spec), { renderer: 'none', logger });
  try {
    const svg = await view.toSVG();
    return { id, label, svg: roundGeometry(prefixIds(svg, `${id}-`)), spec: full, warnings };
  } finally {
    view.finalize();
  }
}

/** Geometry attributes of vega's SVG; their numbers are all that `roundGeometry` touches. */
const GEOMETRY = /\s(d|transform|x|y|x1|x2|y1|y2|dx|dy|width|height|offset)="([^"]*)"/g;

/**
 * Rounds the numbers in geometry attributes to two decimals (a hundredth of a pixel):
 * vega writes 42.90170492622539, which only makes the file bigger. Text is left alone.
 */
export function roundGeometry(svg: string): string {
  return svg.replace(GEOMETRY, (_, name: string, value: string) => ` ${name}="${value.replace(/(\.\d\d)\d+/g, '$1')}"`);
}

/**
 * Renames the ids an SVG defines (clip paths, gradients) to `<prefix>1`, `<prefix>2`, ...
 * in order, with the references to them. Many SVGs inline in one page share one id
 * space, where a second `clip1` would silently resolve to the first chart's; and vega
 * numbers gradients from a process-wide counter, which would make the same chart's bytes
 * depend on what was rendered before it.
 */
export function prefixIds(svg: string, prefix: string): string {
  const ids = new Map<string, string>();
  for (const match of svg.matchAll(/\sid="([^"]+)"/g))
    if (!ids.has(match[1]!)) ids.set(match[1]!, `${prefix}${ids.size + 1}`);
  if (ids.size === 0) return svg;
  return svg.replace(/(\sid="|url\(#|href="#)([^")]+)/g, (whole, lead: string, name: string) => {
    const renamed = ids.get(name);
    return renamed === undefined ? whole : `${lead}${renamed}`;
  });
}
