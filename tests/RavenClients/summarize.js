#!/usr/bin/env node
// Summarizes a mocha JSON report (mocha --reporter json --reporter-option output=FILE) per test folder:
// passed / failed / pending, with the folders of features Folio does not have marked out of scope.
"use strict";
const fs = require("fs");
const path = require("path");

// A test that a failing hook kept from running is not in the report's failures: the dry run (mocha --dry-run)
// lists every test, and each is counted as failed unless the report has it passed or pending.
const [dryRunPath, reportPath, format] = process.argv.slice(2);
if (!dryRunPath || !reportPath) {
    process.stderr.write("usage: summarize.js DRY-RUN.json REPORT.json [--markdown]\n");
    process.exit(2);
}
const markdown = format === "--markdown";
const dryRun = JSON.parse(fs.readFileSync(dryRunPath, "utf8"));
const report = JSON.parse(fs.readFileSync(reportPath, "utf8"));

// Folders (and files) that exercise features Folio does not have; matched case-insensitively on the path.
const outOfScope = [/cluster/i, /replication/i, /etl/i, /timeseries/i, /time_?series/i, /counters?\b/i, /counters\//i,
    /attachments?/i, /revisions?/i, /certificate/i, /https/i, /backup/i, /compareexchange/i, /sharding/i];

function folderOf(test) {
    const file = test.file || "";
    const marker = `${path.sep}test${path.sep}`;
    const at = file.lastIndexOf(marker);
    const relative = at >= 0 ? file.slice(at + marker.length) : file;
    const dir = path.dirname(relative);
    return dir === "." ? "(root)" : dir.split(path.sep).slice(0, 2).join("/");
}

// A test whose name does not say it but whose body drives counters or time series (a session's countersFor or
// timeSeriesFor, their operations and includes) exercises a feature Folio does not have just the same.
const outOfScopeCalls = /\b(countersFor|timeSeriesFor|incrementCounter|deleteCounter|includeCounters?|includeAllCounters|includeTimeSeries|includeAllTimeSeries|(Get|Delete|Configure|Append)?(Counters|TimeSeries)(Batch)?Operation|CounterBatch|TimeSeriesOperation|timeSeriesRollup)\b/;
const bodies = new Map();

// The text of a test's `it(...)` in the compiled file: from its title to the next test's title, or the file's end.
function bodyOf(test) {
    const file = test.file || "";
    if (!bodies.has(file)) {
        let text = "";
        try { text = fs.readFileSync(file, "utf8"); } catch { /* a test whose file is gone is judged by its name alone */ }
        bodies.set(file, text);
    }
    const text = bodies.get(file);
    const title = JSON.stringify(test.title || "");
    const quoted = [title, "'" + title.slice(1, -1) + "'", "`" + title.slice(1, -1) + "`"];
    let start = -1;
    for (const q of quoted) {
        start = text.indexOf("it(" + q);
        if (start >= 0) break;
    }
    return start < 0 ? "" : text.slice(start, endOfCall(text, start + 2));
}

// Where the call whose "(" is at `open` ends, skipping strings and comments, so helpers after the last test are not its body.
function endOfCall(text, open) {
    let depth = 0;
    for (let i = open; i < text.length; i++) {
        const c = text[i];
        if (c === "\"" || c === "'" || c === "`") {
            for (i++; i < text.length && text[i] !== c; i++) if (text[i] === "\\") i++;
        } else if (c === "/" && text[i + 1] === "/") {
            i = text.indexOf("\n", i); if (i < 0) return text.length;
        } else if (c === "/" && text[i + 1] === "*") {
            i = text.indexOf("*/", i + 2); if (i < 0) return text.length; i++;
        } else if (c === "(") depth++;
        else if (c === ")" && --depth === 0) return i + 1;
    }
    return text.length;
}

function scopeOf(test) {
    const file = test.file || "";
    if (outOfScope.some(r => r.test(file) || r.test(test.fullTitle || ""))) return "out";
    return outOfScopeCalls.test(bodyOf(test)) ? "out" : "in";
}

const rows = new Map();
function add(test, kind) {
    const key = folderOf(test);
    const scope = scopeOf(test);
    const row = rows.get(key) || { folder: key, in: { passed: 0, failed: 0, pending: 0 }, out: { passed: 0, failed: 0, pending: 0 } };
    row[scope][kind]++;
    rows.set(key, row);
}
const keyOf = t => `${t.file}\u0000${t.fullTitle}`;
const passed = new Set(report.passes.map(keyOf));
const pending = new Set(report.pending.map(keyOf));
for (const t of dryRun.passes) add(t, passed.has(keyOf(t)) ? "passed" : pending.has(keyOf(t)) ? "pending" : "failed");
for (const t of dryRun.pending) add(t, "pending");

const sorted = [...rows.values()].sort((a, b) => a.folder.localeCompare(b.folder));
const total = { in: { passed: 0, failed: 0, pending: 0 }, out: { passed: 0, failed: 0, pending: 0 } };
for (const r of sorted) for (const s of ["in", "out"]) for (const k of ["passed", "failed", "pending"]) total[s][k] += r[s][k];

const pct = s => { const run = s.passed + s.failed; return run ? (100 * s.passed / run).toFixed(1) + "%" : "-"; };
if (markdown) {
    console.log("| folder | in scope: passed | failed | pending | out of scope: passed | failed | pending |");
    console.log("|---|---:|---:|---:|---:|---:|---:|");
    for (const r of sorted) {
        console.log(`| ${r.folder} | ${r.in.passed} | ${r.in.failed} | ${r.in.pending} | ${r.out.passed} | ${r.out.failed} | ${r.out.pending} |`);
    }
    console.log(`| **total** | **${total.in.passed}** | **${total.in.failed}** | **${total.in.pending}** | ${total.out.passed} | ${total.out.failed} | ${total.out.pending} |`);
} else {
    const pad = (s, n) => String(s).padEnd(n);
    console.log(pad("folder", 28) + pad("in: pass", 10) + pad("fail", 6) + pad("pend", 6) + pad("out: pass", 11) + pad("fail", 6) + "pend");
    for (const r of sorted) {
        console.log(pad(r.folder, 28) + pad(r.in.passed, 10) + pad(r.in.failed, 6) + pad(r.in.pending, 6) + pad(r.out.passed, 11) + pad(r.out.failed, 6) + r.out.pending);
    }
    console.log(pad("total", 28) + pad(total.in.passed, 10) + pad(total.in.failed, 6) + pad(total.in.pending, 6) + pad(total.out.passed, 11) + pad(total.out.failed, 6) + total.out.pending);
}
console.log(`in scope: ${total.in.passed} passed of ${total.in.passed + total.in.failed} run (${pct(total.in)}), ${total.in.pending} pending`);
