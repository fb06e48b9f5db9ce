// How query results look: facet results as bars, documents and projections (group by included) as a
// table whose columns are the fields the results hold.

import { h, cellText, fieldsOf } from '../dom.js';

const isFacet = (item) => item && Array.isArray(item.Values) && 'RemainingTerms' in item;

/** The results of one query as DOM. onOpen(id) opens a document. */
export function renderResults(result, onOpen) {
  const items = result.Results;
  if (!items.length) return h('p', { class: 'muted', id: 'no-results' }, 'No results.');
  if (items.every(isFacet)) return h('div', { id: 'facet-results' }, items.map(renderFacet));
  return renderTable(items, onOpen);
}

function renderFacet(facet) {
  const max = Math.max(1, ...facet.Values.map((v) => v.Count));
  return h('section', { class: 'facet', 'aria-label': `Facet ${facet.Name}` },
    h('h2', {}, facet.Name),
    facet.Values.map((value) => {
      const label = value.Range === null ? '(null)' : value.Range;
      const extras = Object.entries(value).filter(([k]) => !['Range', 'Count'].includes(k)).map(([k, v]) => `${k} ${cellText(v)}`).join(', ');
      return h('div', { class: 'facet-row', role: 'group', 'aria-label': `${label}: ${value.Count}` },
        h('span', { title: label }, label),
        h('div', {}, h('div', { class: 'facet-bar', style: `width:${(100 * value.Count) / max}%` })),
        h('span', { class: 'num' }, value.Count.toLocaleString('en-US')),
        extras && h('span', { class: 'muted small', style: 'grid-column: 2 / 4' }, extras));
    }),
    facet.RemainingTermsCount > 0 && h('p', { class: 'muted small' }, `${facet.RemainingTermsCount} more terms, ${facet.RemainingHits} more hits`),
    facet.MissingCount > 0 && h('p', { class: 'muted small' }, `${facet.MissingCount} without a value`));
}

function renderTable(items, onOpen) {
  const columns = fieldsOf(items);
  const withIds = items.some((i) => i['@metadata']?.['@id']);
  const grouped = items.every((i) => i['@metadata']?.['@projection'] && !i['@metadata']['@id']);
  return h('table', { class: 'data', id: grouped ? 'group-results' : 'table-results' },
    h('caption', { class: 'muted small', style: 'text-align:left' }, grouped ? 'Grouped results' : withIds ? 'Double-click a row to open the document' : 'Results'),
    h('thead', {}, h('tr', {}, withIds && h('th', { scope: 'col' }, 'Id'), columns.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, items.map((item) => {
      const id = item['@metadata']?.['@id'];
      return h('tr', { tabindex: id ? '0' : null, ondblclick: () => id && onOpen(id), onkeydown: (event) => { if (event.key === 'Enter' && id) onOpen(id); } },
        withIds && h('td', {}, id || ''),
        columns.map((c) => h('td', { class: typeof item[c] === 'number' ? 'num' : null }, cellText(item[c]))));
    })));
}

/** Results as CSV (RFC 4180), one column per field. */
export function toCsv(items) {
  const columns = fieldsOf(items);
  const quote = (text) => (/[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  const lines = [['@id', ...columns].map(quote).join(',')];
  for (const item of items) lines.push([item['@metadata']?.['@id'] || '', ...columns.map((c) => cellText(item[c]))].map(quote).join(','));
  return lines.join('\r\n') + '\r\n';
}
