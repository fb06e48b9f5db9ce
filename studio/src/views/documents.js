// Documents: the collections with their counts on the side; a virtual, server-paged grid of a
// collection, of an id prefix or of every document; double-click or Enter opens the editor.

import * as api from '../api.js';
import { h, replace, errorBox, formatNumber, toast, fieldsOf } from '../dom.js';
import { createGrid } from '../components/grid.js';
import { openEditor } from './document-editor.js';

const PAGE_SIZE = 100;
const DEFAULT_COLUMNS = 7;

/** Shows the view for the route's parameters: collection, prefix, id (an open document) or new. */
export function mount(container, { params, state, navigate }) {
  const database = state.database;

  const side = h('nav', { class: 'side', 'aria-label': 'Collections' });
  const pane = h('section', { class: 'pane', 'aria-label': 'Documents' });
  replace(container, h('div', { class: 'split' }, side, pane));
  let cleanup = () => {};
  const controller = new AbortController();

  const showSide = async () => {
    let stats;
    try {
      stats = await api.collectionStats(database, controller.signal);
    } catch (error) {
      if (error.name !== 'AbortError') replace(side, errorBox(error));
      return null;
    }
    const current = params.collection ?? (params.prefix === undefined && !params.id && !params.new ? '' : null);
    const item = (label, count, target, selected, name) => h('li', {}, h('button', {
      type: 'button', 'aria-current': String(selected), 'data-name': name, onclick: () => navigate(target),
    }, h('span', {}, label), h('span', { class: 'count' }, formatNumber(count))));
    const names = Object.keys(stats.Collections).sort((a, b) => a.localeCompare(b));
    const prefix = h('input', { id: 'prefix', type: 'search', placeholder: 'users/', value: params.prefix || '' });
    replace(side,
      h('ul', { id: 'collections' },
        item('All documents', stats.CountOfDocuments, '#/documents', current === ''),
        names.map((name) => item(name, stats.Collections[name], `#/documents?collection=${encodeURIComponent(name)}`, current === name, name))),
      h('form', { class: 'form-row', style: 'margin-top:12px', onsubmit: (event) => { event.preventDefault(); navigate(`#/documents?prefix=${encodeURIComponent(prefix.value)}`); } },
        h('label', { for: 'prefix' }, 'Ids starting with'), prefix));
    return stats;
  };

  const showGrid = (stats) => {
    const collection = params.collection;
    const prefix = params.prefix;
    const byPrefix = prefix !== undefined || collection === undefined;
    const knownTotal = collection !== undefined
      ? Object.entries(stats.Collections).find(([name]) => name.toLowerCase() === collection.toLowerCase())?.[1] ?? 0
      : prefix ? null : stats.CountOfDocuments;
    const status = h('span', { class: 'muted', id: 'grid-status', 'aria-live': 'polite' });
    const picker = h('details', { class: 'columns' }, h('summary', {}, 'Columns'), h('div', { id: 'column-list' }));
    const title = collection !== undefined ? collection : prefix ? `Ids starting with ${prefix}` : 'All documents';
    let chosen = null;

    const fieldColumn = (name) => ({ name, value: (doc) => doc[name] });
    const idColumn = { name: 'Id', width: 200, value: (doc) => doc['@metadata']?.['@id'] };
    const collectionColumn = { name: '@collection', width: 120, value: (doc) => doc['@metadata']?.['@collection'] };
    const base = collection !== undefined ? [idColumn] : [idColumn, collectionColumn];
    const pickColumns = (rows) => {
      const seen = fieldsOf(rows);
      chosen ??= seen.slice(0, DEFAULT_COLUMNS);
      const list = picker.querySelector('#column-list');
      replace(list, seen.map((name) => h('label', { style: 'display:block' },
        h('input', { type: 'checkbox', checked: chosen.includes(name), onchange: (event) => {
          chosen = event.target.checked ? [...chosen, name] : chosen.filter((c) => c !== name);
          grid.setColumns([...base, ...chosen.map(fieldColumn)]);
        } }), ` ${name}`)));
      grid.setColumns([...base, ...chosen.map(fieldColumn)]);
    };

    let total = knownTotal ?? PAGE_SIZE;
    const grid = createGrid({
      id: 'documents-grid', label: `${title}: documents`, total, pageSize: PAGE_SIZE, columns: base,
      fetchPage: async (start, count, signal) => {
        const page = byPrefix
          ? await api.prefixPage(database, prefix || '', start, count, signal)
          : await api.collectionPage(database, collection, start, count, signal);
        const rows = page.Results;
        if (knownTotal === null) {
          // An id prefix has no count: the listing grows while its pages come back full.
          total = rows.length === count ? Math.max(total, start + 2 * count) : start + rows.length;
          grid.setTotal(total);
        }
        if (!chosen) pickColumns(rows);
        return rows;
      },
      onOpen: (doc) => navigate(`#/documents?id=${encodeURIComponent(doc['@metadata']['@id'])}`),
      onStatus: (text) => { status.textContent = text; },
      onError: (error) => toast(error.message, 'error'),
    });
    replace(pane,
      h('div', { class: 'toolbar' },
        h('h1', { style: 'margin:0' }, title),
        h('span', { class: 'grow' }),
        status,
        h('label', {}, 'Go to row', h('input', { id: 'goto-row', type: 'number', min: '1', style: 'width:9em',
          onchange: (event) => { const row = Number(event.target.value); if (row >= 1) grid.scrollToRow(row - 1); } })),
        picker,
        h('button', { type: 'button', onclick: () => grid.refresh(total) }, 'Refresh'),
        h('button', { type: 'button', class: 'primary', onclick: () => navigate(`#/documents?new=1${collection ? `&collection=${encodeURIComponent(collection)}` : ''}`) }, 'New document')),
      grid.element);
    grid.refresh(total);
    return () => grid.destroy();
  };

  (async () => {
    const stats = await showSide();
    if (!stats || controller.signal.aborted) return;
    if (params.id !== undefined || params.new) {
      cleanup = openEditor(pane, { database, id: params.id, collection: params.collection, navigate, onSaved: showSide });
    } else {
      cleanup = showGrid(stats);
    }
  })();

  return () => { controller.abort(); cleanup(); };
}
