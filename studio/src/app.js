// The studio's shell: the database picker, the theme, and a hash router that mounts one view module
// at a time (#/documents?collection=Orders). Each view's mount returns the function that unmounts it.

import * as api from './api.js';
import { getState, setState, subscribe } from './store.js';
import { h, replace, errorBox, toast } from './dom.js';
import { apiKey } from './credentials.js';
import { showApiKeyDialog } from './components/api-key-dialog.js';

const views = {
  dashboard: () => import('./views/dashboard.js'),
  documents: () => import('./views/documents.js'),
  query: () => import('./views/query.js'),
  indexes: () => import('./views/indexes.js'),
  storage: () => import('./views/storage.js'),
  import: () => import('./views/import.js'),
  databases: () => import('./views/databases.js'),
};

const main = document.getElementById('main');
const picker = document.getElementById('database');
const themePicker = document.getElementById('theme');
const keyButton = document.getElementById('api-key-button');
let unmount = () => {};
let generation = 0;
let mounted = null;

function parseHash() {
  const hash = location.hash.replace(/^#\/?/, '');
  const [name, search] = hash.split('?');
  const params = Object.fromEntries(new URLSearchParams(search || ''));
  return { name: views[name] ? name : 'documents', params };
}

/** Goes to a hash route; { replace } keeps history clean, { reload } remounts even when the hash is the same. */
export function navigate(hash, { replace: replaceEntry = false, reload = false } = {}) {
  if (location.hash === hash) { if (reload) route(); return; }
  if (replaceEntry) { history.replaceState(null, '', hash); route(); } else location.hash = hash;
}

async function route() {
  const current = ++generation;
  const { name, params } = parseHash();
  for (const link of document.querySelectorAll('#nav a')) {
    if (link.dataset.view === name) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  unmount();
  unmount = () => {};
  let module;
  try {
    module = await views[name]();
  } catch (error) {
    replace(main, errorBox(error));
    return;
  }
  if (current !== generation) return;
  main.replaceChildren();
  main.dataset.view = name;
  mounted = module;
  const state = getState();
  // Every view but the list of databases is about the chosen one, so none of them mounts without it.
  if (module.perDatabase !== false && !state.database) {
    replace(main, h('p', {}, 'No database yet. ', h('a', { href: '#/databases' }, 'Create one'), ' first.'));
    return;
  }
  unmount = module.mount(main, { params, state, navigate, refreshDatabases }) || (() => {});
}

/** Reloads the database picker, keeping the chosen database when it still exists. */
export async function refreshDatabases(prefer) {
  let databases = [];
  try {
    databases = (await api.listDatabases()).map((d) => d.Name);
  } catch (error) {
    toast(error.message, 'error');
  }
  const wanted = prefer ?? getState().database;
  const chosen = databases.find((d) => d.toLowerCase() === (wanted || '').toLowerCase()) ?? databases[0] ?? '';
  replace(picker, databases.length ? databases.map((name) => h('option', { value: name, selected: name === chosen }, name)) : h('option', { value: '' }, '(none)'));
  document.getElementById('db-hint').textContent = databases.length ? '' : 'no databases';
  setState({ database: chosen });
}

function applyTheme(theme) {
  if (theme === 'auto') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.dataset.theme = theme;
  themePicker.value = theme;
}

function showKeyState() {
  keyButton.textContent = apiKey() ? 'API key (set)' : 'API key';
}

/** After a key was entered or forgotten, everything shown may have changed: the databases and the view. */
async function keyChanged() {
  showKeyState();
  refusalsSeen = new Set();
  await refreshDatabases();
  route();
}

// A refused call asks for a key once per status and key, so a view that polls (the dashboard) does not
// reopen the dialog each second after it was closed; entering another key asks again.
let refusalsSeen = new Set();
window.addEventListener('folio:refused', (event) => {
  const refusal = event.detail;
  const seen = `${refusal.status} ${apiKey()}`;
  if (refusalsSeen.has(seen)) return;
  refusalsSeen.add(seen);
  showApiKeyDialog(refusal, keyChanged);
});
keyButton.addEventListener('click', () => showApiKeyDialog(null, keyChanged));

picker.addEventListener('change', () => setState({ database: picker.value }));
themePicker.addEventListener('change', () => setState({ theme: themePicker.value }));
subscribe((state, changed) => {
  if (changed.includes('theme')) applyTheme(state.theme);
  if (changed.includes('database')) {
    picker.value = state.database;
    // Views about one database show the new one; a view over all of them (databases) stays.
    if (mounted?.perDatabase !== false) route();
  }
});
window.addEventListener('hashchange', route);
window.addEventListener('unhandledrejection', (event) => {
  // A failed call no view caught: say it rather than fail silently.
  toast(event.reason?.message || String(event.reason), 'error');
  event.preventDefault();
});

applyTheme(getState().theme);
showKeyState();
refreshDatabases().then(() => { if (!main.dataset.view) route(); });
