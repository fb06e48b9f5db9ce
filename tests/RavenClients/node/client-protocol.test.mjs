// Folio's own tests of the seeds' system's client protocol, through its official Node.js client (npm `ravendb`).
// Run: FOLIO_URL=http://127.0.0.1:8080 node --test client-protocol.test.mjs  (tests/Server.Tests runs it against a fresh server).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import {
    DocumentStore, CreateDatabaseOperation, DeleteDatabasesOperation, GetStatisticsOperation,
    AbstractJavaScriptIndexCreationTask, AbstractCsharpIndexCreationTask, PutIndexesOperation, IndexDefinition,
} from "ravendb";

const url = process.env.FOLIO_URL;
assert.ok(url, "FOLIO_URL must name the server, e.g. http://127.0.0.1:8080");
const database = "node_client_" + Date.now();
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

class UsersByName extends AbstractJavaScriptIndexCreationTask {
    constructor() {
        super();
        this.map(User, u => ({ name: u.name, age: u.age }));
        this.index("name", "Search");
    }
}

class UsersByAge extends AbstractCsharpIndexCreationTask {
    constructor() {
        super();
        this.map = "from u in docs.Users select new { u.age }";
    }
}

async function waitForIndexing() {
    for (let i = 0; i < 200; i++) {
        const stats = await store.maintenance.send(new GetStatisticsOperation());
        if (stats.indexes.every(x => !x.isStale)) return;
        await new Promise(r => setTimeout(r, 50));
    }
    assert.fail("indexes stayed stale");
}

before(async () => {
    const admin = new DocumentStore(url, "unused");
    admin.conventions.disableTopologyUpdates = true;
    admin.initialize();
    await admin.maintenance.server.send(new CreateDatabaseOperation({ databaseName: database }));
    admin.dispose();
    // Topology updates on: the client asks /topology and follows the node it gets.
    store = new DocumentStore(url, database);
    store.initialize();
});

after(async () => {
    await store.maintenance.server.send(new DeleteDatabasesOperation({ databaseNames: [database], hardDelete: true }));
    store.dispose();
});

test("store takes HiLo ids and load reads them back with an include", async () => {
    const session = store.openSession();
    const company = new Company("Acme");
    await session.store(company);
    const user = new User("Ann", 31, company.id);
    await session.store(user);
    await session.saveChanges();
    assert.match(user.id, /^users\/\d+-A$/);
    assert.match(company.id, /^companies\/\d+-A$/);

    const reader = store.openSession();
    const loaded = await reader.include("companyId").load(user.id, User);
    assert.equal(loaded.name, "Ann");
    const included = await reader.load(company.id, Company);
    assert.equal(included.name, "Acme");
    assert.equal(reader.advanced.numberOfRequests, 1);
});

test("delete answers what the session reads", async () => {
    const session = store.openSession();
    await session.store(new User("Gone", 1), "users/gone");
    await session.saveChanges();
    const deleter = store.openSession();
    await deleter.delete("users/gone");
    await deleter.saveChanges();
    assert.equal(await store.openSession().load("users/gone"), null);
});

test("optimistic concurrency refuses a stale write", async () => {
    const first = store.openSession();
    await first.store(new User("Bo", 2), "users/bo");
    await first.saveChanges();
    const a = store.openSession();
    a.advanced.useOptimisticConcurrency = true;
    const b = store.openSession();
    const userA = await a.load("users/bo");
    const userB = await b.load("users/bo");
    userB.age = 3;
    await b.saveChanges();
    userA.age = 4;
    await assert.rejects(() => a.saveChanges(), e => e.name === "ConcurrencyException");
});

test("queries page, order, count and report statistics", async () => {
    const session = store.openSession();
    for (let i = 0; i < 10; i++) await session.store(new User("paged" + i, 100 + i), "paged/" + i);
    await session.saveChanges();

    const query = store.openSession();
    let stats;
    const page = await query.query({ collection: "Users" })
        .whereGreaterThanOrEqual("age", 100)
        .statistics(s => stats = s)
        .orderByDescending("age")
        .skip(2).take(3)
        .all();
    assert.deepEqual(page.map(u => u.age), [107, 106, 105]);
    assert.equal(stats.totalResults, 10);
    assert.equal(await store.openSession().query({ collection: "Users" }).whereGreaterThanOrEqual("age", 100).count(), 10);
    const names = await store.openSession().query({ collection: "Users" }).whereEquals("age", 104).selectFields("name").all();
    assert.deepEqual(names, ["paged4"]);
    const first = await store.openSession().query({ collection: "Users" }).whereEquals("name", "paged7").first();
    assert.equal(first.age, 107);
});

test("JavaScript and C# indexes are created, waited for and queried", async () => {
    await new UsersByName().execute(store);
    await new UsersByAge().execute(store);
    await waitForIndexing();
    const found = await store.openSession().query({ indexName: "UsersByName" }).search("name", "ann").all();
    assert.deepEqual(found.map(u => u.name), ["Ann"]);
    const old = await store.openSession().query({ indexName: "UsersByAge" }).whereGreaterThan("age", 108).all();
    assert.deepEqual(old.map(u => u.age), [109]);
});

test("an index Folio cannot translate is refused with the reason", async () => {
    const definition = new IndexDefinition();
    definition.name = "Filtered";
    definition.maps = new Set(["from u in docs.Users where u.age > 3 select new { u.name }"]);
    await assert.rejects(() => store.maintenance.send(new PutIndexesOperation(definition)),
        e => e.name === "IndexCompilationException" && /cannot translate/.test(e.message));
});

test("bulk insert streams documents in", async () => {
    const bulk = store.bulkInsert();
    for (let i = 0; i < 500; i++) await bulk.store(new User("bulk" + i, i), "bulk/" + i);
    await bulk.finish();
    assert.equal(await store.openSession().query({ collection: "Users" }).waitForNonStaleResults().whereStartsWith("name", "bulk").count(), 500);
});

test("a missing database is reported as such", async () => {
    const other = new DocumentStore(url, "no_such_database_here");
    other.conventions.disableTopologyUpdates = true;
    other.initialize();
    await assert.rejects(() => other.openSession().load("users/1"), e => e.name === "DatabaseDoesNotExistException");
    other.dispose();
});

class City {
    constructor(name, country, latitude, longitude) {
        this.name = name;
        this.country = country;
        this.latitude = latitude;
        this.longitude = longitude;
    }
}

class CitiesByLocation extends AbstractCsharpIndexCreationTask {
    constructor() {
        super();
        this.map = "from c in docs.Cities select new { c.name, c.country, location = CreateSpatialField(c.latitude, c.longitude) }";
    }
}

test("suggestions, spatial fields of a translated map and more-like-this on an exact field", async () => {
    const session = store.openSession();
    await session.store(new City("Lisbon", "Portugal", 38.7223, -9.1393), "cities/1");
    await session.store(new City("Porto", "Portugal", 41.1579, -8.6291), "cities/2");
    await session.store(new City("Madrid", "Spain", 40.4168, -3.7038), "cities/3");
    await session.store(new City("Paris", "France", 48.8566, 2.3522), "cities/4");
    await session.saveChanges();
    await new CitiesByLocation().execute(store);
    await waitForIndexing();

    // Lisbn is two edits of six from lisbon (0.67); paris shares a bigram but is far less alike.
    const suggested = await store.openSession().query({ indexName: "CitiesByLocation" })
        .suggestUsing(x => x.byField("name", "Lisbn").withDisplayName("didYouMean")).execute();
    assert.deepEqual(suggested.didYouMean.suggestions, ["lisbon"]);

    // Porto is about 274 km from Lisbon, Madrid about 502 km.
    const near = await store.openSession().query({ indexName: "CitiesByLocation" })
        .withinRadiusOf("location", 400, 38.7223, -9.1393)
        .orderByDistanceDescending("location", 38.7223, -9.1393)
        .all();
    assert.deepEqual(near.map(c => c.name), ["Porto", "Lisbon"]);

    const alike = await store.openSession().query({ indexName: "CitiesByLocation" })
        .moreLikeThis(f => f.usingDocument(b => b.whereEquals("id()", "cities/1"))
            .withOptions({ fields: ["country"], minimumTermFrequency: 1, minimumDocumentFrequency: 1 }))
        .all();
    assert.deepEqual(alike.map(c => c.name), ["Porto"]);
});
