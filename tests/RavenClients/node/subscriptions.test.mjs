// Folio's own tests of data subscriptions through the seeds' system's official Node.js client (npm `ravendb`): the
// workers speak the seeds' TCP protocol to Folio's subscriptions port.
// Run: FOLIO_URL=http://127.0.0.1:8080 node --test subscriptions.test.mjs  (tests/Server.Tests runs it against a fresh server).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { DocumentStore, CreateDatabaseOperation, DeleteDatabasesOperation } from "ravendb";

const url = process.env.FOLIO_URL;
assert.ok(url, "FOLIO_URL must name the server, e.g. http://127.0.0.1:8080");
const database = "node_subscriptions_" + Date.now();
let store;

class User {
    constructor(name, age, companyId) {
        this.name = name;
        this.age = age;
        this.companyId = companyId;
    }
}

class Company {
    constructor(name) {
        this.name = name;
    }
}

/** Resolves with the first value `event` of `emitter` passes, or rejects after `ms`. */
function next(emitter, event, ms = 10_000) {
    return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
        emitter.on(event, value => {
            clearTimeout(timer);
            resolve(value);
        });
    });
}

/** Collects batches' ids until `count` arrived. */
function collect(worker, count, ms = 10_000) {
    const ids = [];
    return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${ids.length} of ${count} documents within ${ms} ms: ${ids}`)), ms);
        worker.on("error", err => { clearTimeout(timer); reject(err); });
        worker.on("batch", (batch, done) => {
            for (const item of batch.items) ids.push(item.id);
            done();
            if (ids.length >= count) {
                clearTimeout(timer);
                resolve(ids);
            }
        });
    });
}

before(async () => {
    const admin = new DocumentStore(url, "unused");
    admin.conventions.disableTopologyUpdates = true;
    admin.initialize();
    await admin.maintenance.server.send(new CreateDatabaseOperation({ databaseName: database }));
    admin.dispose();
    store = new DocumentStore(url, database);
    store.initialize();
});

after(async () => {
    await store.maintenance.server.send(new DeleteDatabasesOperation({ databaseNames: [database], hardDelete: true }));
    store.dispose();
});

test("a worker gets what the query selects, in batches it acknowledges, and the position is kept", async () => {
    const session = store.openSession();
    for (let i = 1; i <= 5; i++) await session.store(new User("u" + i, i * 10), "users/" + i);
    await session.saveChanges();
    const name = await store.subscriptions.create({ query: "from Users where age >= 20", name: "adults" });
    assert.equal(name, "adults");

    const worker = store.subscriptions.getSubscriptionWorker({ subscriptionName: name, maxDocsPerBatch: 2 });
    try {
        assert.deepEqual(await collect(worker, 4), ["users/2", "users/3", "users/4", "users/5"]);
    } finally {
        worker.dispose();
    }

    // The last acknowledgement reaches the server just after the last batch's callback.
    let state;
    for (let i = 0; i < 100 && !(state = await store.subscriptions.getSubscriptionState(name)).changeVectorForNextBatchStartingPoint; i++)
        await new Promise(r => setTimeout(r, 50));
    assert.match(state.changeVectorForNextBatchStartingPoint, /^A:\d+-/);
    assert.ok(state.subscriptionId > 0);
});

test("a second worker is refused while the first holds it, and a dropped worker is told it was closed", async () => {
    const name = await store.subscriptions.create({ query: "from Companies" });
    const first = store.subscriptions.getSubscriptionWorker({ subscriptionName: name });
    const second = store.subscriptions.getSubscriptionWorker({ subscriptionName: name, strategy: "OpenIfFree" });
    try {
        const connected = next(first, "onEstablishedSubscriptionConnection");
        first.on("batch", (batch, done) => done());
        await connected;

        const refused = next(second, "error");
        second.on("batch", (batch, done) => done());
        assert.equal((await refused).name, "SubscriptionInUseException");

        const closed = next(first, "error");
        await store.subscriptions.dropConnection(name);
        assert.equal((await closed).name, "SubscriptionClosedException");
    } finally {
        first.dispose();
        second.dispose();
    }
});

test("documents the query includes come with the batch, so loading them asks the server nothing", async () => {
    const session = store.openSession();
    await session.store(new Company("Acme"), "companies/acme");
    await session.store(new User("worker", 40, "companies/acme"), "workers/1");
    await session.saveChanges();
    const name = await store.subscriptions.create({ query: "from Users as doc where doc.name = 'worker'", includes: builder => builder.includeDocuments("companyId") });

    const worker = store.subscriptions.getSubscriptionWorker({ subscriptionName: name });
    try {
        const loaded = new Promise((resolve, reject) => {
            worker.on("error", reject);
            worker.on("batch", async (batch, done) => {
                try {
                    const batchSession = batch.openSession();
                    const company = await batchSession.load(batch.items[0].result.companyId);
                    resolve({ company: company.name, requests: batchSession.advanced.numberOfRequests });
                    done();
                } catch (err) {
                    reject(err);
                    done(err);
                }
            });
        });
        assert.deepEqual(await loaded, { company: "Acme", requests: 0 });
    } finally {
        worker.dispose();
    }
});

test("subscriptions are updated, disabled and enabled, and a missing one is reported as such", async () => {
    await store.subscriptions.create({ query: "from Users", name: "changing" });
    await store.subscriptions.update({ name: "changing", query: "from Users where age > 18" });
    await store.subscriptions.disable("changing");
    let [state] = (await store.subscriptions.getSubscriptions(0, 100)).filter(s => s.subscriptionName === "changing");
    assert.equal(state.query, "from Users where age > 18");
    assert.equal(state.disabled, true);
    await store.subscriptions.enable("changing");
    [state] = (await store.subscriptions.getSubscriptions(0, 100)).filter(s => s.subscriptionName === "changing");
    assert.equal(state.disabled, false);

    await assert.rejects(store.subscriptions.getSubscriptionState("nobody"), { name: "SubscriptionDoesNotExistException" });
    await assert.rejects(store.subscriptions.update({ name: "nobody", query: "from Users" }), { name: "SubscriptionDoesNotExistException" });
    const missing = store.subscriptions.getSubscriptionWorker({ subscriptionName: "nobody" });
    try {
        const failed = next(missing, "error");
        missing.on("batch", (batch, done) => done());
        assert.equal((await failed).name, "SubscriptionDoesNotExistException");
    } finally {
        missing.dispose();
    }
});
