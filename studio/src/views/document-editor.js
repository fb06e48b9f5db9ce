// The document editor: JSON with colouring, line numbers and validation as you type (line and column
// of the first error), metadata apart, save with If-Match so a concurrent change shows as a conflict
// beside your version, clone, delete, and a local draft that survives a reload until it is saved.

import * as api from '../api.js';
import { h, replace, errorBox, toast } from '../dom.js';
import { createEditor } from '../components/editor.js';
import { highlightJson, validateJsonObject } from '../components/highlight.js';

const draftKey = (database, id) => `folio.draft:${database}:${id ?? ''}`;
const readDraft = (key) => { try { return JSON.parse(localStorage.getItem(key)); } catch { return null; } };
const pretty = (value) => JSON.stringify(value, null, 2);

function withoutMetadata(document) {
  const { '@metadata': _, ...rest } = document;
  return rest;
}

/** Opens the editor in pane; returns the function that closes it. */
export function openEditor(pane, { database, id, collection, navigate, onSaved }) {
  const controller = new AbortController();
  let closed = false;
  replace(pane, h('p', { class: 'muted' }, 'Loading…'));

  (async () => {
    let loaded = null;
    if (id !== undefined) {
      try {
        loaded = await api.loadDocument(database, id, controller.signal);
      } catch (error) {
        if (error.name !== 'AbortError') replace(pane, errorBox(error));
        return;
      }
      if (closed) return;
      if (!loaded) {
        replace(pane, h('p', { role: 'alert' }, `There is no document '${id}'. `, h('a', { href: '#/documents' }, 'Back to the documents')));
        return;
      }
    }
    show(loaded);
  })();

  function show(loaded) {
    const isNew = !loaded;
    const metadata = loaded?.document['@metadata'] ?? { '@collection': collection || '' };
    const key = draftKey(database, isNew ? '' : id);
    const serverText = isNew ? '{\n  \n}' : pretty(withoutMetadata(loaded.document));
    let etag = loaded?.etag ?? null;
    const draft = readDraft(key);
    const notice = h('div', { class: 'status-line', id: 'draft-notice', 'aria-live': 'polite' });
    let text = serverText;
    if (draft && draft.text !== serverText) {
      text = draft.text;
      // Saving the draft must conflict if the document changed since the draft began.
      if (draft.etag) etag = draft.etag;
      replace(notice, h('span', { class: 'warn' }, `Restored your unsaved draft from ${new Date(draft.at).toLocaleString()}. `),
        h('button', { type: 'button', onclick: () => { localStorage.removeItem(key); editor.value = serverText; etag = loaded?.etag ?? null; validate(); replace(notice); } }, 'Discard draft'));
    }

    const validation = h('div', { class: 'status-line', id: 'json-status', 'aria-live': 'polite' });
    const conflictArea = h('div', { id: 'conflict' });
    const idInput = h('input', { id: 'doc-id', value: isNew ? `${(collection || 'docs').toLowerCase()}/` : id, readOnly: !isNew, size: 30 });
    const collectionInput = h('input', { id: 'doc-collection', value: metadata['@collection'] || '', readOnly: !isNew, size: 16 });
    let saveTimer = 0;

    const validate = () => {
      const problem = validateJsonObject(editor.value);
      if (problem) {
        replace(validation, h('span', { class: 'bad', id: 'json-error' }, `Line ${problem.line}, column ${problem.column}: ${problem.message}`));
      } else {
        replace(validation, h('span', { class: 'ok' }, 'Valid JSON'));
      }
      saveButton.disabled = Boolean(problem);
      return problem;
    };
    const keepDraft = () => {
      clearTimeout(saveTimer);
      saveTimer = setTimeout(() => {
        if (editor.value === serverText) localStorage.removeItem(key);
        else localStorage.setItem(key, JSON.stringify({ text: editor.value, etag, at: Date.now() }));
      }, 200);
    };
    const editor = createEditor({
      id: 'doc-json', label: 'Document JSON', value: text, colour: highlightJson,
      onInput: () => { validate(); keepDraft(); },
      onRun: () => save(),
    });
    editor.textarea.addEventListener('keydown', (event) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') { event.preventDefault(); save(); }
    });

    const body = () => {
      const value = JSON.parse(editor.value);
      const extra = {};
      for (const [name, item] of Object.entries(metadata)) if (!['@id', '@change-vector', '@last-modified', '@collection'].includes(name)) extra[name] = item;
      const target = isNew ? collectionInput.value.trim() : metadata['@collection'];
      return { ...value, '@metadata': { ...extra, ...(target ? { '@collection': target } : {}) } };
    };

    async function save(overwriteEtag) {
      if (validate()) return;
      const targetId = isNew ? idInput.value.trim() : id;
      if (!targetId) { toast('Give the document an id (ending in / for one the server makes).', 'error'); idInput.focus(); return; }
      clearTimeout(saveTimer);
      try {
        const result = await api.storeDocument(database, targetId, body(), overwriteEtag ?? etag);
        localStorage.removeItem(key);
        toast(`Saved ${result.Id}`);
        onSaved?.();
        if (isNew || overwriteEtag) navigate(`#/documents?id=${encodeURIComponent(result.Id)}`, { replace: true, reload: true });
        else {
          etag = `"${result.ChangeVector}"`;
          const fresh = await api.loadDocument(database, id);
          if (fresh && !closed) show(fresh);
        }
      } catch (error) {
        if (error.kind === 'concurrency-conflict') await showConflict();
        else toast(error.message, 'error');
      }
    }

    async function showConflict() {
      const theirs = await api.loadDocument(database, id);
      const mine = editor.value;
      replace(conflictArea, h('section', { class: 'error-box', role: 'alert', 'aria-labelledby': 'conflict-title', style: 'color:inherit' },
        h('h2', { id: 'conflict-title', class: 'bad' }, 'Conflict: the document changed on the server since you opened it'),
        h('p', {}, 'Nothing was overwritten. Compare the versions and choose.'),
        h('div', { class: 'conflict' },
          h('div', {}, h('h3', {}, 'Your version'), h('pre', { id: 'conflict-mine' }, mine)),
          h('div', {}, h('h3', {}, theirs ? `Server version (${theirs.document['@metadata']['@change-vector']})` : 'Server version: deleted'),
            h('pre', { id: 'conflict-theirs' }, theirs ? pretty(withoutMetadata(theirs.document)) : '(deleted)'))),
        h('div', { class: 'toolbar' },
          h('button', { type: 'button', class: 'danger', id: 'conflict-overwrite', onclick: () => save(theirs ? theirs.etag : undefined) }, 'Overwrite with mine'),
          h('button', { type: 'button', id: 'conflict-theirs-button', onclick: () => { localStorage.removeItem(key); if (theirs) show(theirs); } }, 'Discard mine, load theirs'),
          h('button', { type: 'button', onclick: () => replace(conflictArea) }, 'Keep editing'))));
      conflictArea.querySelector('button').focus();
    }

    let deleteArmed = false;
    const deleteButton = h('button', { type: 'button', class: 'danger', id: 'doc-delete', disabled: isNew, onclick: async () => {
      if (!deleteArmed) {
        deleteArmed = true;
        deleteButton.textContent = 'Click again to delete';
        setTimeout(() => { deleteArmed = false; deleteButton.textContent = 'Delete'; }, 4000);
        return;
      }
      try {
        await api.deleteDocument(database, id, etag);
        localStorage.removeItem(key);
        toast(`Deleted ${id}`);
        onSaved?.();
        navigate(back);
      } catch (error) {
        if (error.kind === 'concurrency-conflict') await showConflict();
        else toast(error.message, 'error');
      }
    } }, 'Delete');
    const saveButton = h('button', { type: 'button', class: 'primary', id: 'doc-save', onclick: () => save() }, 'Save');
    const clone = () => {
      localStorage.setItem(draftKey(database, ''), JSON.stringify({ text: editor.value, etag: null, at: Date.now() }));
      navigate(`#/documents?new=1&collection=${encodeURIComponent(metadata['@collection'] || '')}`);
    };
    const back = metadata['@collection'] ? `#/documents?collection=${encodeURIComponent(metadata['@collection'])}` : '#/documents';

    replace(pane,
      h('div', { class: 'toolbar' },
        h('a', { href: back }, '← Back to list'),
        h('h1', { style: 'margin:0' }, isNew ? 'New document' : id),
        isNew && h('label', {}, 'Id', idInput),
        isNew && h('label', {}, 'Collection', collectionInput),
        h('span', { class: 'grow' }),
        h('button', { type: 'button', onclick: () => { if (!validate()) { editor.value = pretty(JSON.parse(editor.value)); keepDraft(); } } }, 'Format'),
        h('button', { type: 'button', id: 'doc-clone', disabled: isNew, onclick: clone }, 'Clone'),
        deleteButton,
        saveButton),
      notice,
      conflictArea,
      h('div', { class: 'doc-editor' },
        editor.element,
        h('aside', { class: 'meta', 'aria-label': 'Metadata' },
          h('h2', {}, 'Metadata'),
          h('dl', { id: 'doc-metadata' }, Object.entries(metadata).flatMap(([name, value]) => [h('dt', {}, name), h('dd', {}, typeof value === 'string' ? value : JSON.stringify(value))])),
          h('p', { class: 'muted small' }, 'Ctrl+S or Ctrl+Enter saves. Your edits are kept in this browser until saved.'))),
      validation);
    validate();
    editor.focus();
  }

  return () => { closed = true; controller.abort(); };
}
