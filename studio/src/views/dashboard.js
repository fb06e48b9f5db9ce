// Dashboard: live figures polled every two seconds. The server's own (requests/s, p99 latency, writes/s and
// indexing across databases, CPU, memory,
// threads, disk) come from /admin/stats, whose one-second samples of the last two minutes draw the charts
// from the first poll. The chosen database's (documents, writes/s from the last etag, documents indexed/s
// from the indexes' processed etags, size, merged transactions, running bulk inserts) come from its
// database and index stats and build their charts as the page stays open.

import * as api from '../api.js';
import { h, replace, errorBox, formatBytes, formatNumber, repeat } from '../dom.js';
import { sparkline } from '../components/sparkline.js';

const POLL_MS = 2000;
const HISTORY = 60;

const card = (title, value, values, note) => h('section', { class: 'card', 'aria-label': title },
  h('div', { class: 'muted small' }, title), h('div', { class: 'value' }, value), values && sparkline(values, title, 200, 40), note && h('div', { class: 'muted small' }, note));

const milliseconds = (ms) => `${ms < 10 ? ms.toFixed(2) : formatNumber(Math.round(ms))} ms`;

/** The server's cards from one /admin/stats answer. */
function serverCards(stats) {
  const samples = stats.History.slice(-HISTORY);
  const last = samples.at(-1) ?? { Requests: 0, Failed: 0, P99Ms: 0, CpuPercent: 0 };
  const busy = samples.filter((s) => s.Requests > 0);
  return [
    card('Requests/s', formatNumber(last.Requests), samples.map((s) => s.Requests),
      `${formatNumber(stats.Requests.Total)} since start, ${formatNumber(stats.Requests.Failed)} failed`),
    card('p99 latency', milliseconds(busy.at(-1)?.P99Ms ?? 0), samples.map((s) => s.P99Ms),
      `Since start: p50 ${milliseconds(stats.Latency.P50Ms)}, p99 ${milliseconds(stats.Latency.P99Ms)}, max ${milliseconds(stats.Latency.MaxMs)}`),
    card('Writes/s, all databases', formatNumber(last.Writes ?? 0), samples.map((s) => s.Writes),
      `Indexes worked through ${formatNumber(last.Indexed ?? 0)} writes/s`),
    card('CPU', `${Math.round(last.CpuPercent)}%`, samples.map((s) => s.CpuPercent), `${stats.Cpu.Cores} cores; 100% is one core`),
    card('Memory', formatBytes(stats.Memory.WorkingSetBytes), null,
      `Managed heap ${formatBytes(stats.Memory.ManagedHeapBytes)}; GC pauses ${stats.Memory.PauseTimePercent.toFixed(1)}%`),
    card('Disk', formatBytes(stats.Disk.UsedBytes), null, `${formatBytes(stats.Disk.FreeBytes)} free of ${formatBytes(stats.Disk.TotalBytes)}`),
    card('Threads', formatNumber(stats.Threads.Process), null,
      `${formatNumber(stats.Databases)} ${stats.Databases === 1 ? 'database' : 'databases'} (${formatNumber(stats.LoadedDatabases ?? stats.Databases)} loaded); up ${formatNumber(Math.round(stats.UptimeSeconds / 60))} min`),
  ];
}

export function mount(container, { state }) {
  const database = state.database;
  const controller = new AbortController();
  const series = { writes: [], indexed: [], documents: [], size: [] };
  const server = h('div', { class: 'cards', id: 'server-cards' });
  const cards = h('div', { class: 'cards', id: 'dashboard-cards' });
  const status = h('div', { class: 'status-line' });
  let previous = null;

  const push = (name, value) => { series[name].push(value); if (series[name].length > HISTORY) series[name].shift(); };

  const poll = async () => {
    try {
      const [serverStats, stats, indexes] = await Promise.all([
        api.serverStats(controller.signal), api.databaseStats(database, controller.signal), api.indexStats(database, controller.signal)]);
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
      replace(server, serverCards(serverStats));
      replace(cards,
        card('Documents', formatNumber(stats.CountOfDocuments), series.documents),
        card('Writes/s', formatNumber(Math.round(series.writes.at(-1) ?? 0)), series.writes, 'From the last document etag'),
        card('Indexed/s', formatNumber(Math.round(series.indexed.at(-1) ?? 0)), series.indexed, `${indexes.length} indexes, ${stale} stale`),
        card('Size on disk', formatBytes(stats.SizeOnDisk), series.size, 'Documents\' data file'),
        card('Merged transactions', formatNumber(stats.MergedTransactions), null, `Journal written ${formatBytes(stats.JournalBytesWritten)}`),
        card('Bulk inserts running', formatNumber(stats.BulkInsertsInProgress), null,
          (stats.BulkInserts || []).map((b) => `${formatNumber(b.Documents)} docs, ${formatNumber(Math.round(b.DocumentsPerSecond))}/s`).join('; ') || 'None'));
      replace(status);
    } catch (error) {
      if (error.name !== 'AbortError') replace(status, errorBox(error));
    }
  };

  replace(container, h('h1', {}, 'Dashboard'), status, h('h2', {}, 'Server'), server, h('h2', {}, `Database ${database}`), cards);
  repeat(poll, POLL_MS, controller.signal);
  return () => controller.abort();
}
