// Indexes: every index with its engine type, state, staleness (how many etags it is behind), entries,
// errors and last batch, refreshed every two seconds with a small chart of its indexing rate; a
// definition editor for map, full-text and map/reduce indexes whose server errors point at the field;
// reset and delete; the recent indexing errors.

import * as api from '../api.js';
import { h, replace, errorBox, formatBytes, formatNumber, toast, confirmTyped, repeat } from '../dom.js';
import { createEditor } from '../components/editor.js';
import { highlightJson } from '../components/highlight.js';
import { sparkline } from '../components/sparkline.js';

const POLL_MS = 2000;
const templates = {
  map: { Name: 'Products/ByCategory', Collections: ['Products'], Fields: { Category: { Path: 'Category' }, Price: { Path: 'PricePerUnit', Type: 'Double' } } },
  search: { Name: 'Products/Search', Collections: ['Products'], Fields: { Name: { Path: 'Name', Search: true } } },
  language: { Name: 'Products/SearchFrench', Collections: ['Products'], SearchEngine: 'Lucene', Fields: { Name: { Path: 'Name', Search: true, Analyzer: 'French' } } },
  reduce: { Name: 'Orders/ByCompany', Collections: ['Orders'], Reduce: { GroupBy: ['Company'], Aggregations: { Count: { Op: 'Count' }, Total: { Op: 'Sum', Path: 'Freight' } } } },
};

export function mount(container, { params, state, navigate }) {
  const database = state.database;
  if (params.edit !== undefined) return editDefinition(container, database, params.edit, navigate);

  const controller = new AbortController();
  const rates = new Map();
  const table = h('div', { id: 'index-list' }, h('p', { class: 'muted' }, 'Loading…'));
  const errors = h('div', { id: 'index-errors' });

  const refresh = async () => {
    let stats;
    try {
      stats = await api.indexStats(database, controller.signal);
    } catch (error) {
      if (error.name !== 'AbortError') replace(table, errorBox(error));
      return;
    }
    for (const index of stats) {
      const series = rates.get(index.Name) || [];
      series.push(index.RecentBatches.at(-1)?.PerSecond ?? 0);
      rates.set(index.Name, series.slice(-40));
    }
    replace(table, stats.length === 0 ? h('p', { class: 'muted' }, 'No indexes yet. Queries make automatic ones; create one with New index.') : h('table', { class: 'data' },
      h('thead', {}, h('tr', {}, ['Name', 'Type', 'Engine', 'State', 'Behind (etags)', 'Entries', 'Errors', 'Last batch', 'Rate', 'Size', ''].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, stats.map((index) => {
        const behind = Math.max(0, index.LastDocEtag - index.ProcessedEtag);
        const batch = index.RecentBatches.at(-1);
        const stateClass = index.State === 'Error' ? 'bad' : index.IsStale ? 'warn' : 'ok';
        return h('tr', { 'data-index': index.Name },
          h('th', { scope: 'row' }, index.Name),
          h('td', {}, index.Type),
          h('td', { 'data-engine': index.SearchEngine }, index.SearchEngine),
          h('td', { class: stateClass, 'data-state': index.IsStale ? 'stale' : index.State, title: index.Failure || '' }, index.IsStale ? 'Stale' : index.State),
          h('td', { class: 'num' }, formatNumber(behind)),
          h('td', { class: 'num' }, formatNumber(index.EntriesCount)),
          h('td', { class: index.ErrorsCount ? 'num bad' : 'num' }, formatNumber(index.ErrorsCount)),
          h('td', { class: 'small', style: 'white-space:nowrap' }, batch ? `${formatNumber(batch.Documents)} in ${batch.DurationInMs.toFixed(0)} ms` : '–'),
          h('td', {}, sparkline(rates.get(index.Name), `${index.Name} documents per second`)),
          h('td', { class: 'num' }, formatBytes(index.SizeOnDisk)),
          h('td', {}, h('div', { class: 'toolbar', style: 'margin:0;flex-wrap:nowrap' },
            h('button', { type: 'button', onclick: () => navigate(`#/indexes?edit=${encodeURIComponent(index.Name)}`) }, index.Type === 'Auto' ? 'View' : 'Edit'),
            h('button', { type: 'button', onclick: () => reset(index.Name) }, 'Reset'),
            h('button', { type: 'button', class: 'danger', 'aria-label': `Delete ${index.Name}`, onclick: () => remove(index.Name) }, 'Delete'))));
      }))));
    const failing = stats.filter((index) => index.Errors.length);
    replace(errors, failing.length ? [h('h2', {}, 'Indexing errors'), h('table', { class: 'data' },
      h('thead', {}, h('tr', {}, ['Index', 'At', 'Document', 'Error'].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, failing.flatMap((index) => index.Errors.map((e) => h('tr', {}, h('td', {}, index.Name), h('td', {}, new Date(e.At).toLocaleString()), h('td', {}, e.DocumentId), h('td', {}, e.Error))))))] : []);
  };
  const reset = async (name) => {
    try { await api.resetIndex(database, name); toast(`Resetting ${name}`); refresh(); } catch (error) { toast(error.message, 'error'); }
  };
  const remove = async (name) => {
    if (!(await confirmTyped(`Delete the index ${name} and its data?`, name))) return;
    try { await api.deleteIndex(database, name); toast(`Deleted ${name}`); refresh(); } catch (error) { toast(error.message, 'error'); }
  };

  replace(container,
    h('div', { class: 'toolbar' }, h('h1', { style: 'margin:0' }, 'Indexes'), h('span', { class: 'grow' }),
      h('button', { type: 'button', class: 'primary', id: 'new-index', onclick: () => navigate('#/indexes?edit=') }, 'New index')),
    table, errors);
  repeat(refresh, POLL_MS, controller.signal);
  return () => controller.abort();
}

/** The definition editor: a new index (name empty) or an existing one's stored definition. */
function editDefinition(container, database, name, navigate) {
  const controller = new AbortController();
  const editor = createEditor({ id: 'index-json', label: 'Index definition (JSON)', value: JSON.stringify(templates.map, null, 2), colour: highlightJson });
  const status = h('div', { class: 'status-line', id: 'index-status', 'aria-live': 'polite' });
  // The engine is a property of the definition; the picker rewrites it so nobody has to remember its spelling.
  const engine = h('select', { id: 'index-engine', onchange: () => {
    try {
      const definition = JSON.parse(editor.value);
      if (engine.value) definition.SearchEngine = engine.value; else delete definition.SearchEngine;
      editor.value = JSON.stringify(definition, null, 2);
      replace(status);
    } catch (error) {
      replace(status, errorBox(error));
    }
  } }, [['', 'Server default'], ['Folio', 'Folio'], ['Lucene', 'Lucene.Net']].map(([value, text]) => h('option', { value }, text)));
  const showEngine = () => { try { engine.value = JSON.parse(editor.value).SearchEngine ?? ''; } catch { /* the text is being edited */ } };
  const save = async () => {
    let definition;
    try {
      definition = JSON.parse(editor.value);
    } catch (error) {
      replace(status, errorBox(error));
      return;
    }
    try {
      await api.putIndexes(database, [definition]);
      toast(`Saved index ${definition.Name}`);
      navigate('#/indexes');
    } catch (error) {
      replace(status, errorBox(error));
      const at = fieldOffset(editor.value, error.detail || '');
      if (at >= 0) { editor.markError(at); editor.focus(); }
    }
  };
  replace(container,
    h('div', { class: 'toolbar' }, h('a', { href: '#/indexes' }, '← Indexes'), h('h1', { style: 'margin:0' }, name ? `Index ${name}` : 'New index'),
      h('span', { class: 'grow' }),
      !name && Object.keys(templates).map((kind) => h('button', { type: 'button', onclick: () => { editor.value = JSON.stringify(templates[kind], null, 2); showEngine(); } },
        { map: 'Map template', search: 'Full-text template', language: 'French (Lucene) template', reduce: 'Map/reduce template' }[kind])),
      h('label', {}, 'Engine ', engine),
      h('button', { type: 'button', class: 'primary', id: 'save-index', onclick: save }, 'Save index')),
    h('p', { class: 'muted small' }, 'Fields: { Name: { Path, Type: String|Long|Double|Auto, Search, CaseSensitive, Analyzer } }. Analyzer: Folio (English, the default), Exact, Standard, Simple, Whitespace, Keyword or a language (English, French, German, Spanish, Russian, CJK…; an unknown name is answered with the full list). SearchEngine: Folio or Lucene. Map/reduce: Reduce: { GroupBy: [path…], Aggregations: { Name: { Op: Count|Sum|Min|Max|Average, Path } } }. Saving a changed definition rebuilds it side by side.'),
    editor.element, status);
  editor.element.style.height = '360px';
  if (name) {
    api.indexDefinitions(database, controller.signal).then((all) => {
      const found = all.find((d) => d.Name.toLowerCase() === name.toLowerCase());
      if (found) { editor.value = JSON.stringify(found, null, 2); showEngine(); }
      else replace(status, errorBox(new Error(`There is no index '${name}'.`)));
    }, (error) => { if (error.name !== 'AbortError') replace(status, errorBox(error)); });
  }
  editor.focus();
  return () => controller.abort();
}

/** Where in the definition text the server's complaint points: the first name it quotes, else the property it names. */
function fieldOffset(text, detail) {
  for (const match of detail.matchAll(/'([^']+)'/g)) {
    const at = text.indexOf(`"${match[1]}"`);
    if (at >= 0) return at + 1;
  }
  for (const property of ['Collections', 'Fields', 'Reduce', 'GroupBy', 'Aggregations', 'Name', 'Path', 'Type', 'Op']) {
    if (detail.includes(property)) {
      const at = text.indexOf(`"${property}"`);
      if (at >= 0) return at + 1;
    }
  }
  return -1;
}
