// Small helpers for building the DOM without a framework.

/**
 * Creates an element: h('button', { class: 'primary', onclick }, 'Save'). Attributes starting with
 * "on" become listeners; false/null attributes are left out; children may be strings, nodes or arrays.
 */
export function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (name === 'class') element.className = value;
    else if (name === 'text') element.textContent = value;
    else if (name in element && typeof value !== 'string') element[name] = value;
    else element.setAttribute(name, value === true ? '' : value);
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces an element's children. */
export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

const toasts = () => document.getElementById('toasts');

/** A short message in the corner, read out by screen readers; errors stay longer. */
export function toast(message, kind = 'info') {
  const item = h('div', { class: `toast ${kind}` }, message);
  toasts().append(item);
  setTimeout(() => item.remove(), kind === 'error' ? 8000 : 3500);
}

/** Runs task now and again ms after each run has finished, until signal aborts; task handles its own errors. */
export function repeat(task, ms, signal) {
  let timer = 0;
  const run = async () => {
    await task();
    if (!signal.aborted) timer = setTimeout(run, ms);
  };
  signal.addEventListener('abort', () => clearTimeout(timer));
  run();
}

/** A field's value as a cell shows it: objects as JSON, null as "null", a missing field as nothing. */
export function cellText(value) {
  if (value === undefined) return '';
  if (value === null) return 'null';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The fields of documents or projections, in order of first appearance, without @metadata. */
export function fieldsOf(items) {
  const seen = new Set();
  for (const item of items) for (const key of Object.keys(item)) if (key !== '@metadata') seen.add(key);
  return [...seen];
}

/** An error as a readable box (ApiError messages already name the problem). */
export const errorBox = (error) => h('div', { class: 'error-box', role: 'alert' }, error?.message || String(error));

export const formatNumber = (value) => (value === undefined || value === null ? '–' : Number(value).toLocaleString('en-US'));

export function formatBytes(bytes) {
  if (bytes === undefined || bytes === null) return '–';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

/**
 * Asks for a destructive action to be confirmed by typing a word (the name of what goes away).
 * Resolves true when confirmed. The dialog is modal and keyboard-usable: focus starts in the field,
 * Escape cancels.
 */
export function confirmTyped(message, word) {
  return new Promise((resolve) => {
    const input = h('input', { id: 'confirm-input', autocomplete: 'off', 'aria-describedby': 'confirm-message' });
    const ok = h('button', { class: 'danger', type: 'submit', disabled: true }, 'Delete');
    const close = (result) => { backdrop.remove(); resolve(result); };
    input.addEventListener('input', () => { ok.disabled = input.value !== word; });
    const form = h('form', { class: 'dialog', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'confirm-title',
      onsubmit: (event) => { event.preventDefault(); if (input.value === word) close(true); },
      onkeydown: (event) => { if (event.key === 'Escape') close(false); } },
    h('h2', { id: 'confirm-title' }, 'Confirm'),
    h('p', { id: 'confirm-message' }, message),
    h('div', { class: 'form-row' }, h('label', { for: 'confirm-input' }, `Type ${word} to confirm`), input),
    h('div', { class: 'toolbar' }, ok, h('button', { type: 'button', onclick: () => close(false) }, 'Cancel')));
    const backdrop = h('div', { class: 'dialog-backdrop' }, form);
    document.body.append(backdrop);
    input.focus();
  });
}

/** Downloads text as a file. */
export function download(name, text, type = 'application/json') {
  const link = h('a', { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
