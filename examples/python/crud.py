#!/usr/bin/env python3
"""Folio CRUD from Python with the standard library only.

Usage: python3 crud.py http://127.0.0.1:8080

Creates a database, stores documents, loads one, lists them by id prefix, deletes one, and
exits non-zero if any answer is not what Folio documents.
"""
import json
import sys
import urllib.error
import urllib.parse
import urllib.request
import uuid


def call(base, method, path, body=None, headers=None):
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers or {})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            raw = response.read()
            return response.status, response.headers, (json.loads(raw) if raw else None)
    except urllib.error.HTTPError as error:
        raw = error.read()
        return error.code, error.headers, (json.loads(raw) if raw else None)


def expect(condition, message):
    if not condition:
        print("FAILED: " + message, file=sys.stderr)
        sys.exit(1)


def docs(db, doc_id):
    return "/databases/%s/docs?id=%s" % (db, urllib.parse.quote(doc_id, safe=""))


def main():
    if len(sys.argv) != 2:
        print("usage: crud.py SERVER_URL", file=sys.stderr)
        return 2
    base = sys.argv[1].rstrip("/")
    db = "python-" + uuid.uuid4().hex[:8]

    status, _, _ = call(base, "PUT", "/admin/databases", {"Name": db})
    expect(status == 201, "create database answered %d" % status)

    status, headers, stored = call(base, "PUT", docs(db, "users/1"), {"Name": "Ann", "Language": "Python"})
    expect(status == 201 and stored["Id"] == "users/1", "PUT users/1 answered %d %r" % (status, stored))
    call(base, "PUT", docs(db, "users/2"), {"Name": "Bob"})
    call(base, "PUT", docs(db, "orders/1"), {"Total": 10})

    status, headers, loaded = call(base, "GET", docs(db, "users/1"))
    expect(status == 200, "GET users/1 answered %d" % status)
    document = loaded["Results"][0]
    expect(document["Name"] == "Ann", "GET users/1 returned %r" % document)
    expect(document["@metadata"]["@change-vector"] == stored["ChangeVector"], "change vector differs")
    expect(headers["ETag"] == '"%s"' % stored["ChangeVector"], "ETag header is %r" % headers["ETag"])

    status, _, page = call(base, "GET", "/databases/%s/docs?startsWith=users/&pageSize=10" % db)
    names = [d["Name"] for d in page["Results"]]
    expect(status == 200 and names == ["Ann", "Bob"], "prefix query returned %r" % names)

    status, _, _ = call(base, "DELETE", docs(db, "users/1"))
    expect(status == 204, "DELETE answered %d" % status)
    status, _, problem = call(base, "GET", docs(db, "users/1"))
    expect(status == 404 and problem["status"] == 404, "GET after DELETE answered %d" % status)

    status, _, _ = call(base, "DELETE", "/admin/databases?name=" + db)
    expect(status == 204, "delete database answered %d" % status)
    print("python CRUD ok against " + base)
    return 0


if __name__ == "__main__":
    sys.exit(main())
