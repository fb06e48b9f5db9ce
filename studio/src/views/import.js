// Import and export. Import reads an NDJSON or JSON-array file as a stream, turns each document into a
// bulk_insert PUT command and sends them in chunks of a few MB (each chunk one bulk_insert stream), with
// a progress bar (documents, MB, rate) and cancel. Export streams a collection, or every collection,
// through the streaming query endpoint and saves it as NDJSON.

import * as api from '../api.js';
import { h, replace, errorBox, formatBytes, formatNumber, download } from '../dom.js';
import { splitJsonArray, splitLines } from '../components/json-stream.js';

const CHUNK_BYTES = 4 * 1024 * 1024;

export function mount(container, { state }) {
  const database = state.database;
  let controller = null;
  const file = h('input', { type: 'file', id: 'import-file', accept: '.json,.ndjson,.jsonl,application/json' });
  const collection = h('input', { id: 'import-collection', placeholder: 'Products', size: 16 });
  const bar = h('progress', { id: 'import-progress', max: '1', value: '0', 'aria-label': 'Import progress' });
  const status = h('div', { id: 'import-status', 'aria-live': 'polite', class: 'status-line' });
  const start = h('button', { type: 'button', class: 'primary', id: 'import-start' }, 'Import');
  const cancel = h('button', { type: 'button', id: 'import-cancel', disabled: true }, 'Cancel');

  start.addEventListener('click', async () => {
    const chosen = file.files[0];
    if (!chosen) { replace(status, errorBox(new Error('Choose a file first.'))); return; }
    controller = new AbortController();
    start.disabled = true;
    cancel.disabled = false;
    const began = performance.now();
    let documents = 0;
    let read = 0;
    const report = (done, sending = 0) => {
      const seconds = (performance.now() - began) / 1000;
      bar.value = chosen.size ? Math.min(1, (read - sending) / chosen.size) : 1;
      if (done) bar.value = 1;
      replace(status, h('span', { 'data-done': String(done) },
        `${done ? 'Imported' : 'Importing'} ${formatNumber(documents)} documents, ${formatBytes(read)} of ${formatBytes(chosen.size)}, `
        + `${formatNumber(Math.round(documents / Math.max(seconds, 0.001)))} documents/s`));
    };
    try {
      await importFile(chosen, database, collection.value.trim(), controller.signal, (stored, bytes, sending) => {
        documents = stored;
        read = bytes;
        report(false, sending);
      });
      report(true);
      listCollections();
    } catch (error) {
      if (error.name === 'AbortError') replace(status, h('span', { class: 'warn' }, `Cancelled after ${formatNumber(documents)} documents (each finished chunk is stored).`));
      else replace(status, errorBox(error));
    } finally {
      start.disabled = false;
      cancel.disabled = true;
    }
  });
  cancel.addEventListener('click', () => controller?.abort());

  const exportStatus = h('div', { id: 'export-status', 'aria-live': 'polite', class: 'status-line' });
  const exportCollection = h('select', { id: 'export-collection' });
  const listCollections = () => api.collectionStats(database).then((stats) => {
    const chosen = exportCollection.value;
    replace(exportCollection, h('option', { value: '' }, 'Every collection'), Object.keys(stats.Collections).map((name) => h('option', { value: name, selected: name === chosen }, name)));
  }, (error) => replace(exportStatus, errorBox(error)));
  listCollections();
  const runExport = async () => {
    const names = exportCollection.value ? [exportCollection.value] : [...exportCollection.options].map((o) => o.value).filter(Boolean);
    const lines = [];
    try {
      for (const name of names) {
        const response = await api.request('GET', api.streamQueryUrl(database, `from '${name.replace(/'/g, "\\'")}'`), { raw: true });
        await splitJsonArray(response.body.pipeThrough(new TextDecoderStream()).getReader(), 2, (item) => {
          lines.push(`${item}\n`);
          if (lines.length % 1000 === 0) replace(exportStatus, `Exported ${formatNumber(lines.length)} documents…`);
        });
      }
      download(`${database}${exportCollection.value ? `-${exportCollection.value}` : ''}.ndjson`, new Blob(lines, { type: 'application/x-ndjson' }), 'application/x-ndjson');
      replace(exportStatus, `Exported ${formatNumber(lines.length)} documents.`);
    } catch (error) {
      replace(exportStatus, errorBox(error));
    }
  };

  replace(container,
    h('h1', {}, 'Import'),
    h('p', { class: 'muted' }, 'An NDJSON file (one document per line) or a JSON array of documents. A document\'s id is its @metadata.@id, else its Id or id field, else one the server makes; its collection is its @metadata.@collection, else the one below.'),
    h('div', { class: 'toolbar' },
      h('label', { for: 'import-file' }, 'File'), file,
      h('label', {}, 'Collection', collection),
      start, cancel),
    bar, status,
    h('h1', { style: 'margin-top:24px' }, 'Export'),
    h('div', { class: 'toolbar' }, h('label', {}, 'Collection', exportCollection), h('button', { type: 'button', id: 'export-start', onclick: runExport }, 'Export as NDJSON')),
    exportStatus);
  return () => controller?.abort();
}

/** The PUT command for one document of the file. */
function commandFor(text, fallbackCollection) {
  const document = JSON.parse(text);
  if (!document || typeof document !== 'object' || Array.isArray(document)) throw new Error(`Not a JSON object: ${text.slice(0, 80)}`);
  const metadata = document['@metadata'] && typeof document['@metadata'] === 'object' ? document['@metadata'] : {};
  const collection = metadata['@collection'] || fallbackCollection;
  const id = metadata['@id'] || (typeof document.Id === 'string' && document.Id) || (typeof document.id === 'string' && document.id)
    || `${(collection || 'docs').toLowerCase()}/`;
  const stored = { ...document, '@metadata': { ...(collection ? { '@collection': collection } : {}) } };
  return JSON.stringify({ Type: 'PUT', Id: id, Document: stored });
}

/** Streams the file into bulk_insert in chunks; progress(storedDocuments, bytesRead, bytesInFlight). */
async function importFile(file, database, collection, signal, progress) {
  const reader = file.stream().pipeThrough(new TextDecoderStream()).getReader();
  const peek = await file.slice(0, 256).text();
  const isArray = peek.trimStart().startsWith('[');
  let chunk = [];
  let chunkBytes = 0;
  let stored = 0;
  let read = 0;
  const flush = async () => {
    if (!chunk.length) return;
    const blob = new Blob(['[', chunk.join(','), ']'], { type: 'application/json' });
    const inChunk = chunk.length;
    chunk = [];
    chunkBytes = 0;
    const result = await api.bulkInsert(database, blob, { signal, onProgress: () => progress(stored, read, 0) });
    stored += result?.Documents ?? inChunk;
    progress(stored, read, 0);
  };
  const onItem = async (text) => {
    if (signal.aborted) throw new DOMException('The import was cancelled.', 'AbortError');
    const command = commandFor(text, collection);
    chunk.push(command);
    chunkBytes += command.length;
    // File bytes are counted by the text taken; near enough for a progress bar.
    read = Math.min(file.size, read + text.length + 1);
    if (chunkBytes >= CHUNK_BYTES) await flush();
  };
  if (isArray) await splitJsonArray(reader, 1, onItem);
  else await splitLines(reader, onItem);
  await flush();
  progress(stored, file.size, 0);
}
