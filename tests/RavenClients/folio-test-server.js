#!/usr/bin/env node
// Stands in for the seeds' system's server binary in its clients' test drivers (RAVENDB_TEST_SERVER_PATH):
// they spawn it with their own server's options, read "Server available on: URL" from its output within
// a few seconds, write "shutdown no-confirmation" to its stdin and kill it two seconds later.
// Their options are ignored: Folio always starts in a fresh temporary data directory on a free port.
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const http = require("http");
const net = require("net");
const os = require("os");
const path = require("path");

const serverDll = process.env.FOLIO_SERVER_DLL
    || path.join(__dirname, "..", "..", "src", "Server", "bin", "Release", "net10.0", "Folio.Server.dll");
if (!fs.existsSync(serverDll)) {
    process.stderr.write(`Folio server not built: ${serverDll} (set FOLIO_SERVER_DLL or build src/Server -c Release)\n`);
    process.exit(2);
}

const parentArg = process.argv.find(a => a.startsWith("--Testing.ParentProcessId="));
const parentPid = parentArg ? Number(parentArg.split("=")[1]) : process.ppid;

function freePort() {
    return new Promise((resolve, reject) => {
        const listener = net.createServer();
        listener.once("error", reject);
        listener.listen(0, "127.0.0.1", () => {
            const { port } = listener.address();
            listener.close(() => resolve(port));
        });
    });
}

function ready(url) {
    return new Promise(resolve => {
        const request = http.get(url + "/healthz/ready", response => {
            response.resume();
            resolve(response.statusCode === 200);
        });
        request.on("error", () => resolve(false));
        request.setTimeout(500, () => { request.destroy(); resolve(false); });
    });
}

async function main() {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-client-suite-"));
    const httpPort = await freePort();
    const tcpPort = await freePort();
    const url = `http://127.0.0.1:${httpPort}`;
    const logFile = process.env.FOLIO_TEST_SERVER_LOG;
    const output = logFile ? fs.openSync(logFile, "a") : "ignore";
    const server = spawn("dotnet", [serverDll, `--DataDir=${dataDir}`, `--ServerUrl=${url}`, `--TcpPort=${tcpPort}`],
        { stdio: ["ignore", output, output] });

    // The driver SIGKILLs this launcher two seconds after asking it to stop; a detached watchdog stops the
    // server and removes its data when this launcher or the test process is gone, however they ended.
    const watchdog = spawn("sh", ["-c",
        `while kill -0 ${process.pid} 2>/dev/null && kill -0 ${parentPid} 2>/dev/null; do sleep 1; done; ` +
        `kill ${server.pid} 2>/dev/null; i=0; while kill -0 ${server.pid} 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; ` +
        `kill -9 ${server.pid} 2>/dev/null; rm -rf '${dataDir}'`],
        { detached: true, stdio: "ignore" });
    watchdog.unref();

    server.once("exit", code => {
        fs.rmSync(dataDir, { recursive: true, force: true });
        process.exit(code ?? 1);
    });
    process.stdin.on("data", chunk => {
        if (String(chunk).includes("shutdown")) server.kill("SIGTERM");
    });
    process.on("SIGTERM", () => server.kill("SIGTERM"));
    process.on("SIGINT", () => server.kill("SIGTERM"));

    const deadline = Date.now() + 30_000;
    while (!(await ready(url))) {
        if (Date.now() > deadline || server.exitCode !== null) {
            process.stderr.write("Folio did not become ready\n");
            server.kill("SIGKILL");
            return;
        }
        await new Promise(r => setTimeout(r, 50));
    }
    process.stdout.write(`Server available on: ${url}\n`);
}

main();
