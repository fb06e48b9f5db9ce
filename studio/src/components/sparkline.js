// A tiny line chart as inline SVG, for rates over the last samples.

const SVG = 'http://www.w3.org/2000/svg';

/** A sparkline of values (oldest first) with an accessible name that states the latest value. */
export function sparkline(values = [], label = 'chart', width = 120, height = 28) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  svg.setAttribute('role', 'img');
  const latest = values.at(-1) ?? 0;
  svg.setAttribute('aria-label', `${label}: ${Number(latest).toLocaleString('en-US', { maximumFractionDigits: 1 })}`);
  // One sample draws as a flat line rather than nothing.
  if (values.length === 1) values = [values[0], values[0]];
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const line = document.createElementNS(SVG, 'polyline');
  line.setAttribute('points', values.map((v, i) => `${(i * step).toFixed(1)},${(height - 2 - (v / max) * (height - 4)).toFixed(1)}`).join(' '));
  line.setAttribute('fill', 'none');
  line.setAttribute('stroke', 'var(--bar)');
  line.setAttribute('stroke-width', '1.5');
  svg.append(line);
  return svg;
}
