#!/usr/bin/env node
// Folio CRUD from Node.js with the built-in fetch (Node 18+), no packages.
//
// Usage: node crud.mjs http://127.0.0.1:8080
//
// Creates a database, stores documents, loads one, lists them by id prefix, deletes one, and
// exits non-zero if any answer is not what Folio documents.
import { randomUUID } from 'node:crypto';

const base = (process.argv[2] ?? '').replace(/\/$/, '');
if (!base) {
  console.error('usage: crud.mjs SERVER_URL');
  process.exit(2);
}

async function call(method, path, body, headers = {}) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['Content-Type'] = 'application/json';
  }
  const response = await fetch(base + path, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : null };
}

function expect(condition, message) {
  if (!condition) {
    console.error('FAILED: ' + message);
    process.exit(1);
  }
}

const docs = (db, id) => `/databases/${db}/docs?id=${encodeURIComponent(id)}`;

const db = 'node-' + randomUUID().slice(0, 8);

let answer = await call('PUT', '/admin/databases', { Name: db });
expect(answer.status === 201, `create database answered ${answer.status}`);

const stored = await call('PUT', docs(db, 'users/1'), { Name: 'Ann', Language: 'JavaScript' });
expect(stored.status === 201 && stored.json.Id === 'users/1', `PUT users/1 answered ${stored.status}`);
await call('PUT', docs(db, 'users/2'), { Name: 'Bob' });
await call('PUT', docs(db, 'orders/1'), { Total: 10 });

answer = await call('GET', docs(db, 'users/1'));
expect(answer.status === 200, `GET users/1 answered ${answer.status}`);
const document = answer.json.Results[0];
expect(document.Name === 'Ann', `GET users/1 returned ${JSON.stringify(document)}`);
expect(document['@metadata']['@change-vector'] === stored.json.ChangeVector, 'change vector differs');
expect(answer.headers.get('etag') === `"${stored.json.ChangeVector}"`, `ETag is ${answer.headers.get('etag')}`);

const notModified = await call('GET', docs(db, 'users/1'), undefined, { 'If-None-Match': answer.headers.get('etag') });
expect(notModified.status === 304, `If-None-Match answered ${notModified.status}`);

answer = await call('GET', `/databases/${db}/docs?startsWith=users/&pageSize=10`);
const names = answer.json.Results.map((d) => d.Name);
expect(answer.status === 200 && names.join() === 'Ann,Bob', `prefix query returned ${names}`);

answer = await call('DELETE', docs(db, 'users/1'));
expect(answer.status === 204, `DELETE answered ${answer.status}`);
answer = await call('GET', docs(db, 'users/1'));
expect(answer.status === 404 && answer.json.status === 404, `GET after DELETE answered ${answer.status}`);

answer = await call('DELETE', `/admin/databases?name=${db}`);
expect(answer.status === 204, `delete database answered ${answer.status}`);
console.log(`node CRUD ok against ${base}`);
