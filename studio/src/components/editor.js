// A code editor without a library: a transparent textarea over a coloured copy of its text, with line
// numbers, Tab indenting, Ctrl+Enter to run and an optional completion list. The textarea stays the real
// control, so selection, undo, the clipboard and screen readers work as in any text field.

import { h } from '../dom.js';
import { lineColumn } from './highlight.js';

const LINE_HEIGHT = 19;
const PADDING = 8;

/**
 * options: { id, label, value, colour(text, errorAt) → html, onInput(text), onRun(), complete(word, text, caret) → [string] }
 * Returns { element, textarea, value (get/set), markError(offset|-1), focus() }.
 */
export function createEditor(options) {
  const textarea = h('textarea', {
    id: options.id, class: 'code', spellcheck: false, autocapitalize: 'off', autocomplete: 'off', wrap: 'off',
    'aria-label': options.label, 'aria-autocomplete': options.complete ? 'list' : null,
  });
  const pre = h('pre', { 'aria-hidden': 'true' });
  const gutter = h('div', { class: 'gutter', 'aria-hidden': 'true' });
  const list = h('ul', { class: 'completions hidden', role: 'listbox', id: `${options.id}-completions`, 'aria-label': 'Completions' });
  const layers = h('div', { class: 'layers' }, pre, textarea, list);
  const element = h('div', { class: 'editor' }, gutter, layers);
  let errorAt = -1;
  let items = [];
  let selected = 0;
  let gutterLines = 0;

  const render = () => {
    const text = textarea.value;
    pre.innerHTML = options.colour(text, errorAt) + '\n ';
    const lines = text.split('\n').length;
    // The gutter is one text node, so its line count is remembered rather than read back.
    if (lines !== gutterLines) {
      gutterLines = lines;
      gutter.textContent = Array.from({ length: lines }, (_, i) => i + 1).join('\n');
    }
    syncScroll();
  };
  const syncScroll = () => {
    pre.scrollTop = textarea.scrollTop;
    pre.scrollLeft = textarea.scrollLeft;
    gutter.scrollTop = textarea.scrollTop;
  };

  const closeList = () => {
    list.classList.add('hidden');
    textarea.removeAttribute('aria-activedescendant');
    textarea.removeAttribute('aria-controls');
    items = [];
  };
  const wordBefore = () => /[\w@.$]*$/.exec(textarea.value.slice(0, textarea.selectionStart))[0];
  const showList = () => {
    const word = wordBefore();
    if (!options.complete || word.length === 0) { closeList(); return; }
    items = options.complete(word, textarea.value, textarea.selectionStart).slice(0, 50);
    if (!items.length || (items.length === 1 && items[0] === word)) { closeList(); return; }
    selected = 0;
    list.replaceChildren(...items.map((item, i) => h('li', {
      id: `${options.id}-c${i}`, role: 'option', 'aria-selected': String(i === 0),
      onmousedown: (event) => { event.preventDefault(); accept(i); },
    }, item)));
    const { line, column } = lineColumn(textarea.value, textarea.selectionStart);
    const charWidth = measureCharWidth(pre);
    list.style.top = `${PADDING + line * LINE_HEIGHT - textarea.scrollTop}px`;
    list.style.left = `${Math.max(0, PADDING + (column - 1 - word.length) * charWidth - textarea.scrollLeft)}px`;
    list.classList.remove('hidden');
    textarea.setAttribute('aria-controls', list.id);
    textarea.setAttribute('aria-activedescendant', `${options.id}-c0`);
  };
  const move = (delta) => {
    list.children[selected]?.setAttribute('aria-selected', 'false');
    selected = (selected + delta + items.length) % items.length;
    const item = list.children[selected];
    item.setAttribute('aria-selected', 'true');
    item.scrollIntoView({ block: 'nearest' });
    textarea.setAttribute('aria-activedescendant', item.id);
  };
  const accept = (index) => {
    const word = wordBefore();
    const caret = textarea.selectionStart;
    textarea.setRangeText(items[index], caret - word.length, caret, 'end');
    closeList();
    changed();
  };
  const changed = () => {
    errorAt = -1;
    render();
    options.onInput?.(textarea.value);
  };

  textarea.addEventListener('input', () => { changed(); showList(); });
  textarea.addEventListener('scroll', syncScroll);
  textarea.addEventListener('blur', () => setTimeout(closeList, 100));
  textarea.addEventListener('keydown', (event) => {
    const open = !list.classList.contains('hidden');
    if ((event.ctrlKey || event.metaKey) && event.key === 'Enter') {
      event.preventDefault();
      closeList();
      options.onRun?.();
    } else if (open && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault();
      move(event.key === 'ArrowDown' ? 1 : -1);
    } else if (open && (event.key === 'Enter' || event.key === 'Tab')) {
      event.preventDefault();
      accept(selected);
    } else if (open && event.key === 'Escape') {
      event.preventDefault();
      closeList();
    } else if (event.key === 'Tab' && !event.shiftKey && textarea.selectionStart === textarea.selectionEnd) {
      // Tab indents; Escape then Tab leaves the editor, so keyboard users are never trapped.
      if (textarea.dataset.escaped === '1') { textarea.dataset.escaped = ''; return; }
      event.preventDefault();
      textarea.setRangeText('  ', textarea.selectionStart, textarea.selectionEnd, 'end');
      changed();
    } else if (event.key === 'Escape') {
      textarea.dataset.escaped = '1';
    } else if (event.key === ' ' && event.ctrlKey) {
      event.preventDefault();
      showList();
    }
  });

  textarea.value = options.value || '';
  render();
  return {
    element,
    textarea,
    get value() { return textarea.value; },
    set value(text) { textarea.value = text; errorAt = -1; render(); },
    /** Marks the character at a 0-based offset as the error (-1 clears) and puts the caret there. */
    markError(offset) {
      errorAt = offset;
      render();
      if (offset >= 0) {
        textarea.setSelectionRange(Math.min(offset, textarea.value.length), Math.min(offset, textarea.value.length));
      }
    },
    focus() { textarea.focus(); },
  };
}

let charWidthCache = 0;
function measureCharWidth(pre) {
  if (charWidthCache) return charWidthCache;
  const probe = h('span', {}, 'x'.repeat(100));
  pre.append(probe);
  charWidthCache = probe.getBoundingClientRect().width / 100 || 7.8;
  probe.remove();
  return charWidthCache;
}
