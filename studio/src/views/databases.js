// Databases: each with its state (loaded or unloaded), and for loaded ones its document count and size on disk;
// create, and delete after typing its name. Unloaded databases are not asked for stats: that would open every one.

import * as api from '../api.js';
import { h, replace, errorBox, formatBytes, formatNumber, toast, confirmTyped } from '../dom.js';

/** The list covers every database: it mounts with none chosen, and choosing another one leaves it as it is. */
export const perDatabase = false;

export function mount(container, { refreshDatabases }) {
  const controller = new AbortController();
  const list = h('div', { id: 'database-list' }, h('p', { class: 'muted' }, 'Loading…'));
  const name = h('input', { id: 'new-database', required: true, placeholder: 'Northwind', autocomplete: 'off' });
  const formStatus = h('div', { class: 'status-line', id: 'database-status', 'aria-live': 'polite' });

  const refresh = async () => {
    let databases;
    try {
      databases = await api.listDatabases();
    } catch (error) {
      replace(list, errorBox(error));
      return;
    }
    const stats = await Promise.all(databases.map((d) => d.Loaded === false ? null : api.databaseStats(d.Name, controller.signal).catch((error) => ({ error }))));
    if (controller.signal.aborted) return;
    replace(list, databases.length === 0 ? h('p', { class: 'muted' }, 'No databases yet.') : h('table', { class: 'data' },
      h('thead', {}, h('tr', {}, ['Name', 'State', 'Documents', 'Indexes', 'Size on disk', ''].map((c, i) => h('th', { scope: 'col', class: i > 1 && i < 5 ? 'num' : null }, c)))),
      h('tbody', {}, databases.map((database, i) => {
        const s = stats[i];
        return h('tr', { 'data-database': database.Name },
          h('th', { scope: 'row' }, h('a', { href: '#/documents', onclick: () => refreshDatabases(database.Name) }, database.Name)),
          h('td', { class: 'database-state' }, s === null ? 'Unloaded' : 'Loaded'),
          s === null ? h('td', { colspan: '3', class: 'muted' }, 'Opens on its next request') :
          s.error ? h('td', { colspan: '3', class: 'bad' }, s.error.message) : [
            h('td', { class: 'num' }, formatNumber(s.CountOfDocuments)),
            h('td', { class: 'num' }, formatNumber(s.CountOfIndexes)),
            h('td', { class: 'num' }, formatBytes(s.SizeOnDisk))],
          h('td', {}, h('button', { type: 'button', class: 'danger', 'aria-label': `Delete database ${database.Name}`, onclick: () => remove(database.Name) }, 'Delete')));
      }))));
  };
  const remove = async (database) => {
    if (!(await confirmTyped(`Delete the database ${database} with all its documents and indexes? This cannot be undone.`, database))) return;
    try {
      await api.deleteDatabase(database);
      toast(`Deleted database ${database}`);
      await refreshDatabases();
      refresh();
    } catch (error) {
      toast(error.message, 'error');
    }
  };
  const create = async (event) => {
    event.preventDefault();
    try {
      const created = await api.createDatabase(name.value.trim());
      replace(formStatus, h('span', { class: 'ok' }, `Created ${created.Name}`));
      name.value = '';
      await refreshDatabases(created.Name);
      refresh();
    } catch (error) {
      replace(formStatus, errorBox(error));
      name.focus();
    }
  };

  replace(container,
    h('h1', {}, 'Databases'),
    h('form', { class: 'toolbar', onsubmit: create },
      h('label', { for: 'new-database' }, 'New database'), name,
      h('button', { type: 'submit', class: 'primary', id: 'create-database' }, 'Create')),
    formStatus,
    list);
  refresh();
  return () => controller.abort();
}
