// Storage: how the chosen database spends its disk (GET /databases/{db}/storage), which collections compress their
// bodies (…/admin/documents-compression/config), and compaction with its progress from the database's stats. The
// report walks every page, so it is read when the view opens and on demand, never polled; only a running compaction
// is polled, once a second, until it ends.

import * as api from '../api.js';
import { h, replace, errorBox, formatBytes, formatNumber, repeat, toast } from '../dom.js';

const percent = (share) => `${(share * 100).toFixed(1)}%`;

function treesTable(report) {
  return h('table', { class: 'data', id: 'storage-trees' },
    h('caption', {}, 'Trees'),
    h('thead', {}, h('tr', {}, ['Tree', 'Entries', 'Leaf pages', 'Branch pages', 'Overflow pages', 'Leaf fill', 'Overflow fill']
      .map((c, i) => h('th', { scope: 'col', class: i > 0 ? 'num' : null }, c)))),
    h('tbody', {}, report.Trees.map((tree) => h('tr', { 'data-tree': tree.Name },
      h('th', { scope: 'row' }, tree.Name),
      h('td', { class: 'num' }, formatNumber(tree.Entries)),
      h('td', { class: 'num' }, formatNumber(tree.LeafPages)),
      h('td', { class: 'num' }, formatNumber(tree.BranchPages)),
      h('td', { class: 'num' }, formatNumber(tree.OverflowPages)),
      h('td', { class: 'num' }, percent(tree.LeafFill)),
      h('td', { class: 'num' }, tree.OverflowPages > 0 ? percent(tree.OverflowFill) : '–')))));
}

function collectionsTable(report) {
  if (report.Collections.length === 0) return h('p', { class: 'muted' }, 'No documents yet.');
  return h('table', { class: 'data', id: 'storage-collections' },
    h('caption', {}, 'Collections'),
    h('thead', {}, h('tr', {}, ['Collection', 'Documents', 'Compressed', 'Raw JSON', 'Stored', 'Stored ÷ raw', 'Dictionary']
      .map((c, i) => h('th', { scope: 'col', class: i > 0 ? 'num' : null }, c)))),
    h('tbody', {}, report.Collections.map((c) => h('tr', { 'data-collection': c.Name },
      h('th', { scope: 'row' }, c.Name),
      h('td', { class: 'num documents' }, formatNumber(c.Documents)),
      h('td', { class: 'num compressed-documents' }, formatNumber(c.CompressedDocuments)),
      h('td', { class: 'num' }, formatBytes(c.RawBytes)),
      h('td', { class: 'num' }, formatBytes(c.StoredBytes)),
      h('td', { class: 'num' }, c.RawBytes > 0 ? `${(c.StoredBytes / c.RawBytes).toFixed(2)}×` : '–'),
      h('td', { class: 'num' }, c.DictionaryVersion === 0 ? 'none yet' : `v${c.DictionaryVersion}`)))));
}

function compactionLine(stats) {
  const running = stats.Compaction;
  if (running) {
    return h('span', {}, `${running.Phase}: ${running.Percent}% (${formatNumber(running.CopiedEntries)} of ${formatNumber(running.TotalEntries)} entries, `
      + `${running.MegabytesPerSecond} MB/s, ${formatBytes(running.CopiedBytes)} copied)`);
  }
  const last = stats.LastCompaction;
  const done = last
    ? h('span', {}, `Last compaction: ${formatBytes(last.SizeBefore)} → ${formatBytes(last.SizeAfter)} `
      + `(${percent(last.ShareReturned)} returned) in ${formatNumber(last.ElapsedMs)} ms; writes waited ${last.WritesPausedMs} ms.`)
    : h('span', { class: 'muted' }, 'Never compacted since the server started.');
  return h('span', {}, done, ' ', estimateLine(stats.CompactionEstimate));
}

// The server weighs a compaction on its own once a database has gone quiet after writes (Databases:CompactWhenQuietFor).
function estimateLine(estimate) {
  if (!estimate) return h('span', { class: 'muted', id: 'compaction-estimate' }, 'Not yet weighed for a compaction by the server.');
  return h('span', { id: 'compaction-estimate' }, `The server's last estimate: a compaction would return ${formatBytes(estimate.ReclaimableBytes)} `
    + `of ${formatBytes(estimate.FileBytes)} (${percent(estimate.ReclaimableShare)}: ${formatBytes(estimate.FreeBytes)} free, `
    + `${formatBytes(estimate.SlackBytes)} of leaves to fill, ${formatBytes(estimate.RecompressionBytes)} from recompressing `
    + `${formatNumber(estimate.RecompressibleDocuments)} documents).`);
}

export function mount(container, { state }) {
  const database = state.database;
  const controller = new AbortController();
  const summary = h('div', { id: 'storage-summary' }, h('p', { class: 'muted' }, 'Reading the data file…'));
  const tables = h('div', { id: 'storage-tables' });
  const compaction = h('div', { class: 'status-line', id: 'compaction-status', 'aria-live': 'polite' });
  const compactButton = h('button', { type: 'button', id: 'compact', onclick: () => compact() }, 'Compact');
  const all = h('input', { type: 'checkbox', id: 'compress-all' });
  const named = h('input', { id: 'compress-collections', placeholder: 'Orders, Products', autocomplete: 'off' });
  const source = h('span', { class: 'muted small', id: 'compression-source' });
  const compressionStatus = h('div', { class: 'status-line', id: 'compression-status', 'aria-live': 'polite' });
  let polling = null;

  const readReport = async () => {
    try {
      const report = await api.storageReport(database, controller.signal);
      const used = report.AllocatedPages * report.PageSize;
      const file = report.DataFilePages * report.PageSize;
      replace(summary, h('p', {},
        `Data file ${formatBytes(file)}: ${formatBytes(used)} in use, ${formatBytes(report.FreePages * report.PageSize)} in free pages `
        + `(${file > 0 ? percent(report.FreePages * report.PageSize / file) : '0%'}); ${formatNumber(report.JournalFiles)} journal files. `
        + `Documents are compressed with ${report.Zstd}.`));
      replace(tables, collectionsTable(report), treesTable(report));
    } catch (error) {
      if (error.name !== 'AbortError') replace(summary, errorBox(error));
    }
  };

  const readCompaction = async () => {
    const stats = await api.databaseStats(database, controller.signal);
    replace(compaction, compactionLine(stats));
    compactButton.disabled = Boolean(stats.Compaction);
    return Boolean(stats.Compaction);
  };

  // Polls until the compaction ends: by its operation when this view started it (the stats may not show it yet at the
  // first poll, or no longer at the last), else by the stats' running compaction.
  const watchCompaction = (operationId) => {
    if (polling) return;
    const mine = new AbortController();
    polling = mine;
    controller.signal.addEventListener('abort', () => mine.abort());
    repeat(async () => {
      try {
        const running = await readCompaction();
        const operation = operationId === undefined ? null : await api.operationState(database, operationId, mine.signal);
        if (operation ? operation.Status !== 'InProgress' : !running) {
          mine.abort();
          polling = null;
          if (operation?.Status === 'Faulted') replace(compaction, errorBox(new Error(operation.Error || 'The compaction failed.')));
          else await readCompaction();
          readReport();
        }
      } catch (error) {
        if (error.name !== 'AbortError') replace(compaction, errorBox(error));
      }
    }, 1000, mine.signal);
  };

  const compact = async () => {
    compactButton.disabled = true;
    try {
      const started = await api.compactDatabase(database);
      toast(`Compacting ${database}`);
      watchCompaction(started.OperationId);
    } catch (error) {
      compactButton.disabled = false;
      replace(compaction, errorBox(error));
    }
  };

  const readCompression = async () => {
    try {
      const setting = await api.documentsCompression(database, controller.signal);
      all.checked = setting.CompressAllCollections;
      named.value = setting.Collections.join(', ');
      replace(source, setting.Source === 'Server'
        ? `Following the server's setting${setting.UncompressedCollections.length ? ` (left out: ${setting.UncompressedCollections.join(', ')})` : ''}.`
        : 'This database\'s own setting.');
    } catch (error) {
      if (error.name !== 'AbortError') replace(compressionStatus, errorBox(error));
    }
  };

  const saveCompression = async (event) => {
    event.preventDefault();
    const collections = named.value.split(',').map((c) => c.trim()).filter((c) => c.length > 0);
    try {
      await api.setDocumentsCompression(database, { CompressAllCollections: all.checked, Collections: collections });
      replace(compressionStatus, h('span', { class: 'ok' }, 'Saved: new writes use it; stored bodies stay as they are.'));
      readCompression();
    } catch (error) {
      replace(compressionStatus, errorBox(error));
    }
  };

  replace(container,
    h('h1', {}, `Storage of ${database}`),
    summary,
    h('div', { class: 'toolbar' }, h('button', { type: 'button', id: 'refresh-storage', onclick: () => readReport() }, 'Read again'), compactButton),
    compaction,
    h('h2', {}, 'Documents compression'),
    h('form', { id: 'compression-form', onsubmit: saveCompression },
      h('label', {}, all, ' Compress every collection'),
      h('label', { for: 'compress-collections' }, 'Or only these collections (comma-separated)'), named,
      h('button', { type: 'submit' }, 'Save'), source),
    compressionStatus,
    tables);
  readReport();
  readCompression();
  readCompaction().then((running) => { if (running) watchCompaction(); }).catch((error) => {
    if (error.name !== 'AbortError') replace(compaction, errorBox(error));
  });
  return () => controller.abort();
}
