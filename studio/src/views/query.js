// Query: an RQL editor with colouring and completion (keywords, collections, index names, fields from
// index definitions and sampled documents), Ctrl+Enter to run, a parameters editor, results as a table
// or raw JSON with the server's statistics, facets as bars, group-by rows as a table, a syntax error
// marked where the server says it is, history kept in this browser, and export as JSON or CSV.

import * as api from '../api.js';
import { h, replace, errorBox, download, formatNumber } from '../dom.js';
import { apiKey } from '../credentials.js';
import { createEditor } from '../components/editor.js';
import { highlightJson, highlightRql, rqlKeywords } from '../components/highlight.js';
import { renderResults, toCsv } from './query-results.js';

const HISTORY_SIZE = 50;
const historyKey = (database) => `folio.history:${database}`;
const readHistory = (database) => { try { return JSON.parse(localStorage.getItem(historyKey(database))) || []; } catch { return []; } };

export function mount(container, { params, state, navigate }) {
  const database = state.database;
  const controller = new AbortController();
  const words = { collections: [], indexes: [], fields: new Set() };
  const sampled = new Set();
  let last = null;
  let mode = 'table';
  let running = null;

  const complete = (word, text, caret) => {
    const lower = word.toLowerCase();
    const afterFrom = /\bfrom\s+(index\s+)?['"]?[\w/]*$/i.test(text.slice(0, caret));
    const pool = [...words.collections, ...words.indexes.map((n) => `'${n}'`), ...words.fields, ...rqlKeywords];
    sampleFields(text);
    const ranked = afterFrom ? [...words.collections, ...words.indexes.map((n) => `'${n}'`), ...pool] : pool;
    return [...new Set(ranked)].filter((item) => item.toLowerCase().startsWith(lower) || item.toLowerCase().startsWith(`'${lower}`));
  };
  // Fields of the collection the query reads, from a small sample of its documents, fetched once.
  const sampleFields = (text) => {
    const match = /\bfrom\s+([A-Za-z_][\w]*)/i.exec(text);
    const collection = match && words.collections.find((c) => c.toLowerCase() === match[1].toLowerCase());
    if (!collection || sampled.has(collection)) return;
    sampled.add(collection);
    api.collectionPage(database, collection, 0, 20, controller.signal).then((page) => {
      for (const doc of page.Results) for (const key of Object.keys(doc)) if (key !== '@metadata') words.fields.add(key);
    }, () => {});
  };

  const editor = createEditor({
    id: 'rql', label: 'RQL query', value: params.q || readHistory(database)[0]?.query || 'from ',
    colour: highlightRql, onRun: () => run(), complete,
  });
  const parameters = createEditor({ id: 'rql-parameters', label: 'Query parameters (JSON object)', value: '{}', colour: highlightJson });
  const waitBox = h('input', { type: 'checkbox', id: 'wait-non-stale' });
  const stats = h('div', { class: 'stats', id: 'query-stats', 'aria-live': 'polite' });
  const results = h('div', { class: 'results', id: 'query-results' });
  const history = h('ul', { class: 'history', id: 'query-history', style: 'list-style:none;padding:0;margin:0;max-height:120px;overflow:auto' });
  const modeButtons = ['table', 'json'].map((name) => h('button', { type: 'button', 'aria-pressed': String(name === mode), id: `mode-${name}`,
    onclick: () => { mode = name; for (const b of modeButtons) b.setAttribute('aria-pressed', String(b.id === `mode-${mode}`)); show(); } }, name === 'table' ? 'Table' : 'Raw JSON'));

  const showHistory = () => {
    replace(history, readHistory(database).map((item) => h('li', {}, h('button', { type: 'button', title: item.query,
      onclick: () => { editor.value = item.query; editor.focus(); } }, item.query))));
  };
  const remember = (query) => {
    const items = [{ query, at: Date.now() }, ...readHistory(database).filter((i) => i.query !== query)].slice(0, HISTORY_SIZE);
    localStorage.setItem(historyKey(database), JSON.stringify(items));
    showHistory();
  };

  const show = () => {
    if (!last) return;
    const r = last;
    replace(stats,
      h('span', {}, 'Total results ', h('b', { id: 'total-results' }, formatNumber(r.TotalResults))),
      h('span', {}, 'Returned ', h('b', {}, formatNumber(r.Results.length))),
      h('span', {}, 'Server ', h('b', {}, `${r.DurationInMs.toFixed(1)} ms`), ` (round trip ${r.RoundTripMs.toFixed(0)} ms)`),
      h('span', { class: r.IsStale ? 'warn' : 'ok', id: 'stale-flag' }, r.IsStale ? 'Stale' : 'Not stale'),
      h('span', {}, 'Index ', h('b', { id: 'index-used' }, r.IndexName)),
      h('span', {}, 'Index etag ', h('b', {}, formatNumber(r.IndexEtag))),
      h('span', {}, 'Includes ', h('b', {}, formatNumber(Object.keys(r.Includes || {}).length))),
      r.PageSizeCapped && h('span', { class: 'warn' }, `Capped at ${r.PageSize} results: use limit/offset or export the stream`));
    replace(results, mode === 'json'
      ? h('pre', { id: 'raw-json', class: 'mono', tabindex: '0' }, JSON.stringify(r, null, 2))
      : renderResults(r, (id) => navigate(`#/documents?id=${encodeURIComponent(id)}`)));
  };

  async function run() {
    const query = editor.value.trim();
    if (!query) return;
    let values = {};
    try {
      values = JSON.parse(parameters.value || '{}');
      if (!values || typeof values !== 'object' || Array.isArray(values)) throw new Error('Parameters must be a JSON object');
    } catch (error) {
      replace(results, errorBox(new Error(`Parameters: ${error.message}`)));
      return;
    }
    running?.abort();
    running = new AbortController();
    replace(stats, h('span', { class: 'muted' }, 'Running…'));
    remember(query);
    try {
      last = await api.query(database, query, values, { signal: running.signal, waitForNonStale: waitBox.checked });
      show();
    } catch (error) {
      if (error.name === 'AbortError') return;
      last = null;
      replace(stats);
      const at = error.position ?? -1;
      replace(results, h('div', {}, errorBox(error), at >= 0 && h('p', { id: 'query-error-position', class: 'muted' }, `At position ${at}: `,
        h('code', {}, editor.value.slice(Math.max(0, at - 20), at)), h('code', { class: 'tok-err' }, editor.value.slice(at, at + 20) || ' '))));
      editor.markError(at);
      if (at >= 0) editor.focus();
    }
  }

  const exportAs = (kind) => {
    if (!last) return;
    if (kind === 'json') download('results.json', JSON.stringify(last.Results, null, 2));
    else download('results.csv', toCsv(last.Results), 'text/csv');
  };

  replace(container, h('div', { class: 'query-layout' },
    h('div', { class: 'query-top' },
      h('div', {},
        h('label', { for: 'rql', class: 'small' }, 'RQL (Ctrl+Enter runs, Ctrl+Space completes)'),
        editor.element),
      h('div', {},
        h('label', { for: 'rql-parameters', class: 'small' }, 'Parameters'),
        parameters.element,
        h('h2', { class: 'small', style: 'margin:6px 0 2px' }, 'History'),
        history)),
    h('div', { class: 'toolbar' },
      h('button', { type: 'button', class: 'primary', id: 'run-query', onclick: () => run() }, 'Run'),
      h('label', {}, waitBox, ' Wait for non-stale results'),
      h('span', { class: 'grow' }),
      ...modeButtons,
      h('button', { type: 'button', onclick: () => exportAs('json') }, 'Export JSON'),
      h('button', { type: 'button', onclick: () => exportAs('csv') }, 'Export CSV'),
      h('a', { class: 'button', href: '#', id: 'stream-link', onclick: (event) => {
        const target = api.streamQueryUrl(database, editor.value.trim());
        // A link cannot send the API key, so with one the stream is fetched and saved from memory.
        if (apiKey()) {
          event.preventDefault();
          api.request('GET', target, { raw: true }).then((response) => response.blob()).then((blob) => download('results-all.json', blob));
          return;
        }
        event.currentTarget.href = target;
        event.currentTarget.download = 'results-all.json';
      } }, 'Export all (stream)')),
    h('div', { class: 'results-wrap', style: 'display:flex;flex-direction:column;min-height:0;gap:6px' }, stats, results)));
  parameters.element.style.height = '70px';
  showHistory();
  editor.focus();

  Promise.all([api.collectionStats(database, controller.signal), api.indexDefinitions(database, controller.signal)]).then(([collections, indexes]) => {
    words.collections = Object.keys(collections.Collections);
    words.indexes = indexes.map((i) => i.Name);
    for (const index of indexes) {
      for (const field of Object.keys(index.Fields || {})) words.fields.add(field);
      for (const group of index.Reduce?.GroupBy || []) words.fields.add(group.Name);
      for (const name of Object.keys(index.Reduce?.Aggregations || {})) words.fields.add(name);
    }
  }, () => {});

  return () => { controller.abort(); running?.abort(); };
}
