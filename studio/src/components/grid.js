// A virtual grid over a server-paged list: only the rows in view exist in the DOM, and only the pages
// under them are fetched (plus the next one), so opening a collection costs a page whatever its size.
// Keyboard: arrows, Page Up/Down, Home/End move the active row; Enter opens it.

import { h, cellText } from '../dom.js';

const ROW_HEIGHT = 28;
// Browsers cap an element's height (Chromium near 33.5M px); past this the scroll position maps onto rows proportionally.
const MAX_HEIGHT = 15_000_000;
const FETCH_DELAY_MS = 40;

/**
 * options: { id, label, total, pageSize, fetchPage(start, count, signal) → Promise<row[]>, columns: [{ name, value(row) }],
 *            onOpen(row, index), onStatus(text) }
 * Returns { element, setColumns(columns), refresh(total), setTotal(total), scrollToRow(index), destroy(), focus() }.
 */
export function createGrid(options) {
  const pageSize = options.pageSize || 100;
  let total = options.total;
  let columns = options.columns;
  let active = 0;
  const pages = new Map();
  const inFlight = new Map();
  let timer = 0;
  let frame = 0;

  const sizer = h('div', { class: 'grid-sizer' });
  const head = h('div', { class: 'grid-head', role: 'row', 'aria-rowindex': '1' });
  const body = h('div', { class: 'grid-body', role: 'rowgroup' });
  const scroller = h('div', {
    id: options.id, class: 'grid', tabindex: '0', role: 'grid', 'aria-label': options.label,
    'aria-rowcount': String(total + 1), 'aria-colcount': String(columns.length),
  }, head, sizer, body);

  const scale = () => Math.min(1, MAX_HEIGHT / Math.max(1, total * ROW_HEIGHT));
  const template = () => columns.map((c) => `${c.width || 180}px`).join(' ');

  const renderHead = () => {
    head.style.gridTemplateColumns = template();
    head.replaceChildren(...columns.map((c, i) => h('div', { class: 'grid-cell', role: 'columnheader', 'aria-colindex': String(i + 1), title: c.name }, c.name)));
  };

  // A cell is a line wide: what does not fit is cut rather than laid out.
  const shown = (value) => { const text = cellText(value); return text.length > 200 ? `${text.slice(0, 200)}…` : text; };

  const rowAt = (index) => pages.get(Math.floor(index / pageSize))?.[index % pageSize];

  const viewportRows = () => Math.max(1, Math.floor((scroller.clientHeight - ROW_HEIGHT) / ROW_HEIGHT));
  // The row at the top of the view, fractional: proportional over the whole scroll range when scaled,
  // so that the end of the scroll range shows the last rows.
  const firstRowAt = (scrollTop) => {
    if (scale() === 1) return scrollTop / ROW_HEIGHT;
    const range = Math.max(1, scroller.scrollHeight - scroller.clientHeight);
    return (Math.min(scrollTop, range) / range) * Math.max(0, total - viewportRows());
  };
  const scrollTopFor = (firstRow) => {
    if (scale() === 1) return firstRow * ROW_HEIGHT;
    const range = Math.max(1, scroller.scrollHeight - scroller.clientHeight);
    return (firstRow / Math.max(1, total - viewportRows())) * range;
  };

  const render = () => {
    sizer.style.height = `${Math.max(0, total * ROW_HEIGHT * scale()) + ROW_HEIGHT}px`;
    const viewport = scroller.clientHeight - ROW_HEIGHT;
    const firstFloat = firstRowAt(scroller.scrollTop);
    const first = Math.max(0, Math.floor(firstFloat));
    const visible = Math.ceil(viewport / ROW_HEIGHT) + 1;
    const last = Math.min(total, first + visible);
    const columnWidths = template();
    const rows = [];
    for (let index = first; index < last; index++) {
      const row = rowAt(index);
      const top = ROW_HEIGHT + scroller.scrollTop + (index - firstFloat) * ROW_HEIGHT;
      const element = h('div', {
        class: row ? 'grid-row' : 'grid-row loading', role: 'row', id: `${options.id}-r${index}`,
        'aria-rowindex': String(index + 2), 'aria-selected': String(index === active), 'data-index': String(index),
        'data-loaded': row ? 'true' : 'false',
        ondblclick: () => row && options.onOpen(row, index),
        onclick: () => { active = index; scroller.setAttribute('aria-activedescendant', element.id); markActive(); },
      }, columns.map((c, i) => h('div', { class: 'grid-cell', role: 'gridcell', 'aria-colindex': String(i + 1) }, row ? shown(c.value(row)) : '…')));
      element.style.top = `${top}px`;
      element.style.gridTemplateColumns = columnWidths;
      rows.push(element);
    }
    body.replaceChildren(...rows);
    options.onStatus?.(total === 0 ? 'No documents' : `Rows ${Math.min(first + 1, total).toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`);
    schedule(first, last);
  };

  const markActive = () => {
    for (const row of body.children) row.setAttribute('aria-selected', String(Number(row.dataset.index) === active));
  };

  // The pages under the view, then the next one; pages no longer near the view stop loading.
  const schedule = (first, last) => {
    const wanted = new Set();
    const firstPage = Math.floor(first / pageSize);
    const lastPage = Math.floor(Math.max(first, last - 1) / pageSize);
    for (let page = firstPage; page <= lastPage + 1 && page * pageSize < total; page++) wanted.add(page);
    for (const [page, controller] of inFlight) {
      if (!wanted.has(page)) { controller.abort(); inFlight.delete(page); }
    }
    const missing = [...wanted].filter((page) => !pages.has(page) && !inFlight.has(page));
    if (!missing.length) return;
    clearTimeout(timer);
    // The pages in view load at once; only while scrolling fast is the fetch held back a little.
    const delay = missing.some((page) => page >= firstPage && page <= lastPage) && inFlight.size === 0 ? 0 : FETCH_DELAY_MS;
    timer = setTimeout(() => { for (const page of missing) load(page); }, delay);
  };

  const load = (page) => {
    if (pages.has(page) || inFlight.has(page)) return;
    const controller = new AbortController();
    inFlight.set(page, controller);
    options.fetchPage(page * pageSize, pageSize, controller.signal).then((rows) => {
      inFlight.delete(page);
      pages.set(page, rows);
      // Keep memory bounded on long scrolls: drop pages far from the view.
      if (pages.size > 60) {
        const current = Math.floor(firstRowAt(scroller.scrollTop) / pageSize);
        for (const key of pages.keys()) if (Math.abs(key - current) > 20) pages.delete(key);
      }
      render();
    }, (error) => {
      inFlight.delete(page);
      if (error.name !== 'AbortError') options.onError?.(error);
    });
  };

  const moveTo = (index) => {
    if (total === 0) return;
    active = Math.max(0, Math.min(total - 1, index));
    const first = firstRowAt(scroller.scrollTop);
    const rows = viewportRows();
    if (active < first) scroller.scrollTop = scrollTopFor(active);
    else if (active >= first + rows) scroller.scrollTop = scrollTopFor(active - rows + 1);
    render();
    scroller.setAttribute('aria-activedescendant', `${options.id}-r${active}`);
  };

  // Scroll events come many to a frame: one render per frame draws them all.
  scroller.addEventListener('scroll', () => { frame ||= requestAnimationFrame(() => { frame = 0; render(); }); });
  scroller.addEventListener('keydown', (event) => {
    const page = Math.max(1, viewportRows() - 1);
    const moves = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
    if (event.key in moves) moveTo(active + moves[event.key]);
    else if (event.key === 'Home') moveTo(0);
    else if (event.key === 'End') moveTo(total - 1);
    else if (event.key === 'Enter') { const row = rowAt(active); if (row) options.onOpen(row, active); return; } else return;
    event.preventDefault();
  });
  const resize = new ResizeObserver(() => render());
  resize.observe(scroller);

  renderHead();
  return {
    element: scroller,
    setColumns(next) { columns = next; scroller.setAttribute('aria-colcount', String(columns.length)); renderHead(); render(); },
    /** Forgets the loaded pages (after a change) and shows the rows again. */
    refresh(nextTotal = total) {
      total = nextTotal;
      scroller.setAttribute('aria-rowcount', String(total + 1));
      pages.clear();
      for (const controller of inFlight.values()) controller.abort();
      inFlight.clear();
      render();
    },
    /** Changes the row count and keeps the loaded pages (a listing whose length is learnt while paging). */
    setTotal(nextTotal) {
      if (nextTotal === total) return;
      total = nextTotal;
      scroller.setAttribute('aria-rowcount', String(total + 1));
      render();
    },
    /** Scrolls so that the row (0-based) is at the top of the view, and makes it the active row. */
    scrollToRow(index) {
      active = Math.max(0, Math.min(total - 1, index));
      scroller.scrollTop = scrollTopFor(Math.min(active, Math.max(0, total - viewportRows())));
      render();
    },
    destroy() { resize.disconnect(); clearTimeout(timer); cancelAnimationFrame(frame); for (const controller of inFlight.values()) controller.abort(); },
    focus() { scroller.focus(); },
  };
}
