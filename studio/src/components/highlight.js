// Syntax colouring for JSON and RQL: text in, HTML out (escaped), one span per token.

const escapeHtml = (text) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

const span = (kind, text) => `<span class="tok-${kind}">${escapeHtml(text)}</span>`;

const jsonToken = /("(?:[^"\\\n]|\\.)*"?)(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g;

/** Colours JSON: keys, strings, numbers and literals. */
export function highlightJson(text) {
  let html = '';
  let last = 0;
  for (const match of text.matchAll(jsonToken)) {
    html += escapeHtml(text.slice(last, match.index));
    if (match[1] !== undefined) html += span(match[2] ? 'key' : 'str', match[1]) + (match[2] ? escapeHtml(match[2]) : '');
    else if (match[3] !== undefined) html += span('num', match[3]);
    else html += span('lit', match[4]);
    last = match.index + match[0].length;
  }
  return html + escapeHtml(text.slice(last));
}

/** RQL's keywords, for colouring and completion. */
export const rqlKeywords = [
  'from', 'index', 'where', 'and', 'or', 'not', 'order', 'by', 'desc', 'asc', 'as', 'select', 'include', 'limit', 'offset',
  'group', 'between', 'in', 'all', 'true', 'false', 'null', 'facet', 'search', 'startsWith', 'endsWith', 'exists', 'count',
  'sum', 'min', 'max', 'avg', 'average', 'id', 'exact', 'string', 'long', 'double', 'alphanumeric', 'random', 'distinct',
  'filter', 'filter_limit', 'load', 'declare', 'function', 'update',
];
const keywordSet = new Set(rqlKeywords.map((k) => k.toLowerCase()));

const rqlToken = /(--[^\n]*)|('(?:[^'\\]|\\.)*'?|"(?:[^"\\]|\\.)*"?)|(\$[A-Za-z_][\w]*)|(-?\d+(?:\.\d+)?)|([A-Za-z_@][\w.@\[\]]*)/g;

/**
 * Colours RQL: keywords, strings, numbers, parameters and comments; the character at errorAt
 * (a 0-based offset from the server's "at position" note), when given, gets a wavy underline.
 */
export function highlightRql(text, errorAt = -1) {
  let html = '';
  let last = 0;
  const plain = (from, to) => {
    if (errorAt >= from && errorAt < to) {
      return escapeHtml(text.slice(from, errorAt)) + span('err', text[errorAt]) + escapeHtml(text.slice(errorAt + 1, to));
    }
    return escapeHtml(text.slice(from, to));
  };
  const token = (kind, from, to) => (errorAt >= from && errorAt < to ? `<span class="tok-err">${span(kind, text.slice(from, to))}</span>` : span(kind, text.slice(from, to)));
  for (const match of text.matchAll(rqlToken)) {
    html += plain(last, match.index);
    const end = match.index + match[0].length;
    if (match[1]) html += token('com', match.index, end);
    else if (match[2]) html += token('str', match.index, end);
    else if (match[3]) html += token('param', match.index, end);
    else if (match[4]) html += token('num', match.index, end);
    else if (keywordSet.has(match[5].toLowerCase())) html += token('kw', match.index, end);
    else html += errorAt >= match.index && errorAt < end ? `<span class="tok-err">${escapeHtml(match[0])}</span>` : escapeHtml(match[0]);
    last = end;
  }
  html += plain(last, text.length);
  // An error at the end of the query marks a space after it, so it can be seen.
  if (errorAt >= text.length) html += span('err', ' ');
  return html;
}

/** Line (1-based) and column (1-based) of a 0-based offset. */
export function lineColumn(text, offset) {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') { line++; lineStart = i + 1; }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Validates JSON text as one object. Returns null when valid, else { message, line, column, offset }.
 * The engine's message gives an offset ("at position N"); without one the error is at the end.
 */
export function validateJsonObject(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const match = /position (\d+)/.exec(error.message);
    const offset = match ? Number(match[1]) : text.length;
    const { line, column } = lineColumn(text, offset);
    const message = error.message.replace(/\s*in JSON at position \d+.*$/, '').replace(/^JSON\.parse: /, '');
    return { message, line, column, offset };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { message: 'A document must be a JSON object', line: 1, column: 1, offset: 0 };
  }
  return null;
}
