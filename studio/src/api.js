// The studio's only way to the server: one function per REST call of Folio's public API
// (src/Server/Wire/openapi.json). Every failure becomes an ApiError whose message a person can read,
// built from the problem+json answer the server gives. Every call carries the API key, when one was
// entered, and a 401 or 403 is reported to the shell, which asks for a key.

import { authorizationHeaders, reportRefusal } from './credentials.js';

/** A failed call: the server's problem (type, title, status, detail) or a network failure. */
export class ApiError extends Error {
  constructor(problem, request) {
    super(describe(problem));
    this.name = 'ApiError';
    this.status = problem.status ?? 0;
    this.type = problem.type ?? 'about:blank';
    this.title = problem.title ?? 'Request failed';
    this.detail = problem.detail ?? '';
    this.problem = problem;
    this.request = request;
  }

  /** The short name of the problem type, e.g. "concurrency-conflict". */
  get kind() {
    const at = this.type.lastIndexOf(':');
    return at < 0 ? this.type : this.type.slice(at + 1);
  }

  /** For invalid-query problems: the 0-based offset in the query the server points at, or -1. */
  get position() {
    const match = /\(at position (\d+)\)\s*$/.exec(this.detail);
    return match ? Number(match[1]) : -1;
  }
}

function describe(problem) {
  const title = problem.title || `HTTP ${problem.status}`;
  return problem.detail ? `${title}: ${problem.detail}` : title;
}

async function problemOf(response, request) {
  const type = response.headers.get('Content-Type') || '';
  let problem = { status: response.status, title: response.statusText || `HTTP ${response.status}` };
  const text = await response.text();
  if (type.includes('json') && text) {
    try {
      problem = { ...problem, ...JSON.parse(text) };
    } catch {
      problem.detail = text.slice(0, 500);
    }
  } else if (text) {
    problem.detail = text.slice(0, 500);
  }
  return new ApiError(problem, request);
}

function url(path, query) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query || {})) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * Sends one request. Resolves to { status, headers, body } (body parsed when JSON, null when empty);
 * rejects with ApiError for any status from 400, or for a network failure.
 */
export async function request(method, path, { query, body, headers, signal, raw } = {}) {
  const target = url(path, query);
  const init = { method, headers: { Accept: 'application/json', ...authorizationHeaders(), ...headers }, signal };
  if (body !== undefined) {
    init.body = typeof body === 'string' || body instanceof Blob ? body : JSON.stringify(body);
    init.headers['Content-Type'] = 'application/json';
  }
  let response;
  try {
    response = await fetch(target, init);
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new ApiError({ status: 0, title: 'The server cannot be reached', detail: `${method} ${target}: ${error.message}` }, target);
  }
  if (response.status >= 400) throw refused(await problemOf(response, `${method} ${target}`));
  if (raw) return response;
  const text = response.status === 204 || response.status === 304 ? '' : await response.text();
  const type = response.headers.get('Content-Type') || '';
  return { status: response.status, headers: response.headers, body: text && type.includes('json') ? JSON.parse(text) : (text || null) };
}

/** Reports a 401 or 403 to the shell, and answers the error to throw. */
function refused(error) {
  if (error.status === 401 || error.status === 403) reportRefusal(error);
  return error;
}

const db = (name) => `/databases/${encodeURIComponent(name)}`;

// Databases
export const listDatabases = async () => (await request('GET', '/databases')).body.Databases;
export const createDatabase = async (name) => (await request('PUT', '/admin/databases', { body: { Name: name } })).body;
export const deleteDatabase = (name) => request('DELETE', '/admin/databases', { query: { name } });
export const serverStats = async (signal) => (await request('GET', '/admin/stats', { signal })).body;
export const databaseStats = async (name, signal) => (await request('GET', `${db(name)}/stats`, { signal })).body;
export const collectionStats = async (name, signal) => (await request('GET', `${db(name)}/collections/stats`, { signal })).body;
export const storageReport = async (name, signal) => (await request('GET', `${db(name)}/storage`, { signal })).body;
export const compactDatabase = async (name) => (await request('POST', `/admin/databases/${encodeURIComponent(name)}/compact`)).body;
export const operationState = async (name, id, signal) => (await request('GET', `${db(name)}/operations/state`, { query: { id }, signal })).body;
export const documentsCompression = async (name, signal) => (await request('GET', `${db(name)}/admin/documents-compression/config`, { signal })).body;
export const setDocumentsCompression = async (name, setting) =>
  (await request('POST', `${db(name)}/admin/documents-compression/config`, { body: setting })).body;

// Documents
/** A page of a collection in write order: { Results, Start, PageSize, … }. */
export const collectionPage = async (database, collection, start, pageSize, signal) =>
  (await request('GET', `${db(database)}/collections/docs`, { query: { name: collection, start, pageSize }, signal })).body;

/** A page of documents whose ids start with a prefix (all documents when empty). */
export const prefixPage = async (database, prefix, start, pageSize, signal) =>
  (await request('GET', `${db(database)}/docs`, { query: { startsWith: prefix || undefined, start, pageSize }, signal })).body;

/** One document and its ETag (quoted change vector), or null when it does not exist. */
export async function loadDocument(database, id, signal) {
  try {
    const answer = await request('GET', `${db(database)}/docs`, { query: { id }, signal });
    return { document: answer.body.Results[0], etag: answer.headers.get('ETag') };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && error.kind === 'document-not-found') return null;
    throw error;
  }
}

/** Stores a document; with etag, only if it is still that version (else ApiError 409 concurrency-conflict). */
export async function storeDocument(database, id, document, etag) {
  const headers = etag ? { 'If-Match': etag } : undefined;
  return (await request('PUT', `${db(database)}/docs`, { query: { id }, body: document, headers })).body;
}

export const deleteDocument = (database, id, etag) =>
  request('DELETE', `${db(database)}/docs`, { query: { id }, headers: etag ? { 'If-Match': etag } : undefined });

// Queries
/** Runs RQL: { Results, Includes, TotalResults, IsStale, IndexName, DurationInMs, … } plus the round trip in ms. */
export async function query(database, rql, parameters, { signal, waitForNonStale } = {}) {
  const body = { Query: rql };
  if (parameters && Object.keys(parameters).length) body.QueryParameters = parameters;
  if (waitForNonStale) body.WaitForNonStaleResults = true;
  const started = performance.now();
  const answer = await request('POST', `${db(database)}/queries`, { body, signal });
  return { ...answer.body, RoundTripMs: performance.now() - started };
}

/** The URL streaming every result of a query (no paging limits), for downloads. */
export const streamQueryUrl = (database, rql) => url(`${db(database)}/streams/queries`, { query: rql });

// Indexes
export const indexDefinitions = async (database, signal) => (await request('GET', `${db(database)}/indexes`, { signal })).body.Results;
export const indexStats = async (database, signal) => (await request('GET', `${db(database)}/indexes/stats`, { signal })).body.Results;
export const putIndexes = async (database, definitions) => (await request('PUT', `${db(database)}/indexes`, { body: { Indexes: definitions } })).body;
export const deleteIndex = (database, name) => request('DELETE', `${db(database)}/indexes`, { query: { name } });
export const resetIndex = (database, name) => request('POST', `${db(database)}/indexes/reset`, { query: { name } });

/**
 * Sends one bulk_insert stream (a Blob holding a JSON array of PUT commands). XMLHttpRequest rather than
 * fetch because browsers report upload progress only there, and stream a fetch body only over HTTP/2.
 * onProgress(sentBytes, totalBytes); signal aborts. Resolves to the BulkInsertResult.
 */
export function bulkInsert(database, blob, { onProgress, signal } = {}) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const target = `${db(database)}/bulk_insert`;
    xhr.open('POST', target);
    xhr.setRequestHeader('Content-Type', 'application/json');
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [name, value] of Object.entries(authorizationHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => onProgress?.(event.loaded, event.total);
    xhr.onload = () => {
      let body = null;
      try { body = xhr.responseText ? JSON.parse(xhr.responseText) : null; } catch { body = { detail: xhr.responseText }; }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else reject(refused(new ApiError({ status: xhr.status, ...(body || {}) }, `POST ${target}`)));
    };
    xhr.onerror = () => reject(new ApiError({ status: 0, title: 'The server cannot be reached', detail: `POST ${target}` }, target));
    xhr.onabort = () => reject(new DOMException('The import was cancelled.', 'AbortError'));
    if (signal) {
      if (signal.aborted) { reject(new DOMException('The import was cancelled.', 'AbortError')); return; }
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(blob);
  });
}
