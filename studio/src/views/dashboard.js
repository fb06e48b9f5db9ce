// Dashboard: live figures of the chosen database, polled every two seconds from the statistics the
// server offers (database stats, index stats): documents, writes/s (from the last etag), documents
// indexed/s (from the indexes' processed etags), size on disk, merged transactions and running bulk
// inserts. The server has no request, latency or memory statistics yet; the cards say so.

import * as api from '../api.js';
import { h, replace, errorBox, formatBytes, formatNumber, repeat } from '../dom.js';
import { sparkline } from '../components/sparkline.js';

const POLL_MS = 2000;
const HISTORY = 60;

export function mount(container, { state }) {
  const database = state.database;
  const controller = new AbortController();
  const series = { writes: [], indexed: [], documents: [], size: [] };
  const cards = h('div', { class: 'cards', id: 'dashboard-cards' });
  const status = h('div', { class: 'status-line' });
  let previous = null;

  const push = (name, value) => { series[name].push(value); if (series[name].length > HISTORY) series[name].shift(); };
  const card = (title, value, values, note) => h('section', { class: 'card', 'aria-label': title },
    h('div', { class: 'muted small' }, title), h('div', { class: 'value' }, value), values && sparkline(values, title, 200, 40), note && h('div', { class: 'muted small' }, note));

  const poll = async () => {
    try {
      const [stats, indexes] = await Promise.all([api.databaseStats(database, controller.signal), api.indexStats(database, controller.signal)]);
      const now = performance.now();
      const processed = indexes.reduce((sum, index) => sum + index.ProcessedEtag, 0);
      if (previous) {
        const seconds = (now - previous.at) / 1000;
        push('writes', Math.max(0, (stats.LastDocEtag - previous.etag) / seconds));
        push('indexed', Math.max(0, (processed - previous.processed) / seconds));
      }
      push('documents', stats.CountOfDocuments);
      push('size', stats.SizeOnDisk);
      previous = { at: now, etag: stats.LastDocEtag, processed };
      const stale = indexes.filter((i) => i.IsStale).length;
      replace(cards,
        card('Documents', formatNumber(stats.CountOfDocuments), series.documents),
        card('Writes/s', formatNumber(Math.round(series.writes.at(-1) ?? 0)), series.writes, 'From the last document etag'),
        card('Indexed/s', formatNumber(Math.round(series.indexed.at(-1) ?? 0)), series.indexed, `${indexes.length} indexes, ${stale} stale`),
        card('Size on disk', formatBytes(stats.SizeOnDisk), series.size, 'Documents\' data file'),
        card('Merged transactions', formatNumber(stats.MergedTransactions), null, `Journal written ${formatBytes(stats.JournalBytesWritten)}`),
        card('Bulk inserts running', formatNumber(stats.BulkInsertsInProgress), null,
          (stats.BulkInserts || []).map((b) => `${formatNumber(b.Documents)} docs, ${formatNumber(Math.round(b.DocumentsPerSecond))}/s`).join('; ') || 'None'),
        card('Requests/s, p99 latency, memory', '–', null, 'The server has no statistics endpoint for these yet'));
      replace(status);
    } catch (error) {
      if (error.name !== 'AbortError') replace(status, errorBox(error));
    }
  };

  replace(container, h('h1', {}, `Dashboard: ${database}`), status, cards);
  repeat(poll, POLL_MS, controller.signal);
  return () => controller.abort();
}
