// The README's tour with the seeds' system's official Node.js client (npm `ravendb`), against Folio.
//   cd examples/node-ravendb && npm ci && node tour.mjs http://127.0.0.1:8080 [documents to bulk insert, default 100000]
import { DocumentStore, CreateDatabaseOperation, DeleteDatabasesOperation, AbstractJavaScriptIndexCreationTask, GetStatisticsOperation } from "ravendb";

const url = process.argv[2] ?? "http://127.0.0.1:8080";
const bulkCount = Number(process.argv[3] ?? 100_000);
const database = "tour_" + Date.now();

class Company { constructor(name) { this.name = name; } }
class Product { constructor(name, brand, price) { this.name = name; this.brand = brand; this.price = price; } }
class Order { constructor(companyId, total) { this.companyId = companyId; this.total = total; } }

class ProductsForFacets extends AbstractJavaScriptIndexCreationTask {
    constructor() {
        super();
        this.map(Product, p => ({ brand: p.brand, price: p.price }));
    }
}

const store = new DocumentStore(url, database);
store.initialize();
await store.maintenance.server.send(new CreateDatabaseOperation({ databaseName: database }));
try {
    // Store, with HiLo ids.
    const session = store.openSession();
    const acme = new Company("Acme");
    await session.store(acme);
    for (let i = 0; i < 30; i++) await session.store(new Order(acme.id, 10 * i));
    const brands = ["Contoso", "Fabrikam", "Northwind"];
    for (let i = 0; i < 60; i++) await session.store(new Product("product " + i, brands[i % 3], 50 + 25 * i));
    await session.saveChanges();
    console.log(`stored ${acme.id} with 30 orders and 60 products`);

    // Load with include: the company comes in the same round trip.
    const orders = store.openSession();
    const firstOrder = (await orders.query(Order).waitForNonStaleResults().first());
    const reader = store.openSession();
    const order = await reader.include("companyId").load(firstOrder.id, Order);
    const company = await reader.load(order.companyId, Company);
    console.log(`loaded ${order.id} and its company ${company.name} in ${reader.advanced.numberOfRequests} request(s)`);

    // Query with paging and statistics.
    let stats;
    const page = await store.openSession().query(Order)
        .whereGreaterThan("total", 100).orderByDescending("total")
        .statistics(s => stats = s).skip(5).take(5).all();
    console.log(`page 2 of orders over 100: ${page.map(o => o.total).join(", ")} (of ${stats.totalResults})`);

    // Bulk insert.
    const started = Date.now();
    const bulk = store.bulkInsert();
    for (let i = 0; i < bulkCount; i++) await bulk.store(new Order(acme.id, i % 1000), "bulk-orders/" + i);
    await bulk.finish();
    console.log(`bulk inserted ${bulkCount} orders in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    // Facets over an index.
    await new ProductsForFacets().execute(store);
    for (let i = 0; i < 200; i++) {
        const s = await store.maintenance.send(new GetStatisticsOperation());
        if (s.indexes.every(x => !x.isStale)) break;
        await new Promise(r => setTimeout(r, 50));
    }
    const facets = await store.openSession().query({ indexName: "ProductsForFacets" })
        .aggregateBy(f => f.byField("brand"))
        .execute();
    console.log("products per brand: " + facets.brand.values.map(v => `${v.range} ${v.count}`).join(", "));

    // A data subscription: a worker gets the big orders in batches over TCP, each acknowledged when processed.
    const subscription = await store.subscriptions.create({ query: "from Orders where total > 250", name: "big orders" });
    const worker = store.subscriptions.getSubscriptionWorker({ subscriptionName: subscription, maxDocsPerBatch: 50 });
    try {
        const big = await new Promise((resolve, reject) => {
            worker.on("error", reject);
            worker.on("batch", (batch, done) => {
                const first = batch.items.filter(item => item.id.startsWith("orders/"));
                done();
                if (first.length) resolve(first.map(item => item.result.total));
            });
        });
        console.log(`subscription "${subscription}" delivered the big orders: ${big.join(", ")}`);
    } finally {
        worker.dispose();
    }
    console.log("tour ok");
} finally {
    await store.maintenance.server.send(new DeleteDatabasesOperation({ databaseNames: [database], hardDelete: true }));
    store.dispose();
}
