// Splits a stream of JSON text into its top-level items without holding the whole text: the items of
// a JSON array (at a given depth), or the lines of NDJSON. Used to import big files and to export big
// query streams.

/**
 * Reads a ReadableStream of text and calls onItem(text) for each item of the array found at `depth`
 * (1: the top-level array; 2: an array inside the top-level object, as `{"Results":[…]}`), awaiting it
 * before reading on. Returns when the stream ends.
 */
export async function splitJsonArray(reader, depth, onItem) {
  let level = 0;
  let inString = false;
  let escaped = false;
  let item = '';
  let collecting = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    let start = collecting ? 0 : -1;
    for (let i = 0; i < value.length; i++) {
      const c = value[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (c === '\\') escaped = true;
        else if (c === '"') inString = false;
        continue;
      }
      if (c === '"') { inString = true; if (level === depth && !collecting) { collecting = true; start = i; } continue; }
      if (c === '[' || c === '{') {
        if (level === depth && !collecting) { collecting = true; start = i; }
        level++;
      } else if (c === ']' || c === '}') {
        if (level === depth && collecting) {
          item += value.slice(start, i); start = -1; collecting = false;
          if (item.trim()) await onItem(item.trim());
          item = '';
        }
        level--;
      } else if (c === ',' && level === depth) {
        if (collecting) { item += value.slice(start, i); start = -1; collecting = false; }
        if (item.trim()) await onItem(item.trim());
        item = '';
      } else if (level === depth && !collecting && !/\s/.test(c)) {
        collecting = true; start = i;
      }
    }
    if (collecting && start >= 0) item += value.slice(start);
  }
}

/** Calls onItem(line) for each non-empty line of an NDJSON stream. */
export async function splitLines(reader, onItem) {
  let rest = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const lines = (rest + value).split('\n');
    rest = lines.pop();
    for (const line of lines) if (line.trim()) await onItem(line.trim());
  }
  if (rest.trim()) await onItem(rest.trim());
}
