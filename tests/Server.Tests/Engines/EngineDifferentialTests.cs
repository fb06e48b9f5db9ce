using System.Diagnostics;
using System.Text;
using System.Text.Json;
using Folio.Indexing.Documents;
using Folio.Indexing.Querying;
using Folio.Server.Tests.Facets;
using Folio.Server.Tests.MapReduce;
using Folio.Server.Tests.Queries;
using Folio.Storage;
using Folio.Storage.Documents;
using Microsoft.Extensions.Logging.Abstractions;
using Xunit.Abstractions;

namespace Folio.Server.Tests.Engines;

/// <summary>
/// Folio's engine against Lucene.Net's on the same documents: one document store, two index stores (one per engine),
/// and every query asked of both must get the same answer: the same rows in the same order, the same totals, the same
/// facets and groups. Ranked full-text searches compare their rows as sets (the two BM25s may order near-ties
/// differently). Queries come from the SQLite oracle's generators (every operator, sorts, paging), plus full-text
/// searches, facets and group by. A <c>group by</c> without an <c>order by</c> compares its rows as a set too: its rows
/// come in the order the map/reduce index last re-reduced them, which follows the indexing batches' boundaries (sized by
/// time), not the engine.
/// </summary>
public sealed class EngineDifferentialTests(ITestOutputHelper output)
{
    private const int BatchSize = 1_000;
    private static readonly string[] NotePhrases = ["leave door", "door leave", "leave the door", "handle care", "care handle", "fragile care", "ring twice", "twice ring", "rocket mail", "aaa first"];
    private static readonly string[] FuzzyNames = ["Anna", "Emile", "Lukasz", "Oyvind", "Ilker", "Jose", "OBrien", "straße"];
    // The seeds' operators and clauses: case-sensitive text through the auto index's exact() twins, .NET regular
    // expressions over terms, all in, search with and, a bare true, distinct rows, a seeded shuffle and natural order.
    private static readonly string[] OperatorQueries =
    [
        "from Orders where exact(Status = 'Pending')",
        "from Orders where exact(Status in ('pending', 'SHIPPED')) and Total > 100 order by Total as double",
        "from Orders where exact(startsWith(ShipTo.City, 'P')) order by OrderedAt",
        "from Orders where regex(Employee, '^[AaZ]') or regex(ShipTo.City, 'ü|ö')",
        "from Orders where regex(Note, '(?i)^leave') and not regex(Status, 'ed$')",
        "from Orders where Tags all in ('urgent', 'gift')",
        "from Orders where Tags all in ('fragile') and Lines[].Product all in ('products/1', 'products/2')",
        "from Orders where search(Note, 'leave door', and) or search(Note, 'ring twice', or)",
        "from Orders where true and not exists(Discount) order by Total as double desc limit 500",
        "from Orders where Total > 100 select distinct ShipTo.Country",
        "from Orders where Total > 0 select distinct ShipTo.Country, Status limit 40 offset 7",
        "from Orders where Total > 0 order by Employee as alphanumeric, Total as double",
        "from Orders where exists(ShipTo.Zip) order by ShipTo.Zip as alphanumeric desc limit 300",
        "from Orders where Total > 50 order by random('differential') limit 2000",
    ];

    private static readonly string[] NoteWords = ["door", "leave", "ring", "twice", "fragile", "handle", "care", "order", "rocket", "mail", "last", "first", "numeric", "start", "rückseite", "acil"];

    [Fact]
    public Task BothEngines_AnswerRandomQueriesIdentically_OnFiftyThousandOrders() => RunAsync(seed: 20_261_126, orders: 50_000, queries: 500, products: 10_000, facetQueries: 100);

    [Theory]
    [Trait("Category", "Slow")]
    [InlineData(7)]
    [InlineData(8)]
    public Task BothEngines_AnswerRandomQueriesIdentically_ForMoreSeeds(int seed) => RunAsync(seed, orders: 60_000, queries: 2_000, products: 30_000, facetQueries: 400);

    private async Task RunAsync(int seed, int orders, int queries, int products, int facetQueries)
    {
        var clock = Stopwatch.StartNew();
        var root = Path.Combine(Path.GetTempPath(), "folio-differential-" + Guid.NewGuid().ToString("N"));
        var store = DocumentStore.Open(StorageOptions.InMemory());
        var folio = new IndexStore(store, Path.Combine(root, "folio"), NullLoggerFactory.Instance, new IndexStoreOptions { InMemory = true, SearchEngine = "Folio" });
        var lucene = new IndexStore(store, Path.Combine(root, "lucene"), NullLoggerFactory.Instance, new IndexStoreOptions { InMemory = true, SearchEngine = "Lucene" });
        try
        {
            var engines = new[] { new QueryRunner(store, folio), new QueryRunner(store, lucene) };
            var data = OracleDataset.Generate(seed, orders);
            var list = new OracleQueryGenerator(data, seed).Generate(queries);
            // One auto index over every field the queries use, made before the load, so no query widens it.
            // The operator queries' case-sensitive twins (exact(), regex()) too.
            var warmUp = "from Orders where " + string.Join(" or ", list.SelectMany(q => q.FieldsUsed()).Append("Note").Distinct(StringComparer.Ordinal).Select(f => $"exists({f})"))
                + " or exact(exists(Status) or exists(ShipTo.City) or exists(Employee) or exists(Note))";
            foreach (var engine in engines)
                (await RunAsync(engine, warmUp, null)).Dispose();
            await LoadAsync(store, data.Documents);
            await LoadAsync(store, FacetDataset.Generate(seed, products));
            output.WriteLine($"loaded {orders} orders and {products} products at {clock.Elapsed.TotalSeconds:F1}s");
            foreach (var engine in engines)
            {
                (await RunAsync(engine, warmUp + " limit 0", null)).Dispose();
                output.WriteLine($"{(engine == engines[0] ? "Folio" : "Lucene")} caught up at {clock.Elapsed.TotalSeconds:F1}s");
            }

            var failures = new List<string>();
            var compared = 0;
            var answered = 0;
            void Count((string? Failure, bool Answered) comparison)
            {
                compared++;
                if (comparison.Answered)
                    answered++;
                if (comparison.Failure is not null)
                    failures.Add(comparison.Failure);
            }

            foreach (var query in list)
                Count(await CompareAsync(engines, query.ToRql(), null, asSet: false));
            output.WriteLine($"{list.Count} oracle queries compared at {clock.Elapsed.TotalSeconds:F1}s");

            var random = new Random(seed);
            for (var n = 0; n < queries / 5; n++)
            {
                var words = string.Join(' ', Enumerable.Range(0, 1 + random.Next(3)).Select(_ => NoteWords[random.Next(NoteWords.Length)]));
                var filter = random.Next(3) switch { 0 => "", 1 => " and Total > 100", _ => " and not Paid = true" };
                var (order, ranked) = random.Next(3) switch { 0 => (" order by score()", true), 1 => (" order by Total as double desc", false), _ => ("", false) };
                Count(await CompareAsync(engines, $"from Orders where search(Note, '{words}'){filter}{order} limit 1024", null, asSet: ranked));
            }
            for (var n = 0; n < queries / 5; n++)
            {
                var (rql, ranked) = SearchFeatureQuery(random);
                Count(await CompareAsync(engines, rql, null, asSet: ranked));
            }
            output.WriteLine($"{compared} queries compared, fuzzy, phrase and boost ones included, at {clock.Elapsed.TotalSeconds:F1}s");
            foreach (var rql in OperatorQueries)
                Count(await CompareAsync(engines, rql, null, asSet: false));
            output.WriteLine($"{OperatorQueries.Length} queries of the seeds' operators compared at {clock.Elapsed.TotalSeconds:F1}s");
            for (var n = 0; n < 20; n++)
                Count(await CompareAsync(engines, ReduceSpec.Random(random, n).ToGroupByRql(), null, asSet: true));
            var warmFacets = "from Products where " + string.Join(" or ", FacetDataset.All.Select(f => $"exists({f.Rql})"));
            foreach (var engine in engines)
                (await RunAsync(engine, warmFacets, null)).Dispose();
            foreach (var facet in new FacetQueryGenerator(seed).Generate(facetQueries))
                Count(await CompareAsync(engines, facet.ToRql(), facet.ParametersJson(), asSet: false));

            output.WriteLine($"{compared} queries compared ({answered} answered with rows on both engines) at {clock.Elapsed.TotalSeconds:F1}s");
            Assert.True(compared >= 500, $"only {compared} queries were compared");
            // Engines that agree only by failing alike, or by finding nothing, compare nothing.
            Assert.True(answered >= compared / 2, $"only {answered} of {compared} queries were answered with rows");
            Assert.True(failures.Count == 0, $"{failures.Count} of {compared} queries answered differently:\n\n" + string.Join("\n\n", failures.Take(8)));
        }
        finally
        {
            folio.Dispose();
            lucene.Dispose();
            store.Dispose();
            if (Directory.Exists(root))
                Directory.Delete(root, recursive: true);
        }
    }

    /// <summary>
    /// A query with fuzzy words (<c>word~N</c>, misspelt on purpose, and the seeds' <c>fuzzy(F = 'v', factor)</c> on an
    /// exact field), phrases within a slop (<c>"a b"~N</c>, <c>proximity()</c>, words in and out of order) or boosts,
    /// and whether it is ranked (compared as a set: every row of it, so near-ties cannot push different rows off a page).
    /// </summary>
    private static (string Rql, bool Ranked) SearchFeatureQuery(Random random)
    {
        string Misspell(string word)
        {
            var chars = word.ToCharArray();
            for (var edits = random.Next(3); edits > 0 && chars.Length > 2; edits--)
            {
                var at = random.Next(chars.Length - 1);
                if (random.Next(2) == 0)
                    (chars[at], chars[at + 1]) = (chars[at + 1], chars[at]);
                else
                    chars[at] = (char)('a' + random.Next(26));
            }
            return new string(chars);
        }

        string Word() => NoteWords[random.Next(NoteWords.Length)];
        var where = random.Next(7) switch
        {
            0 => $"search(Note, '{Misspell(Word())}~{(random.Next(4) is var e && e == 3 ? "" : e.ToString(System.Globalization.CultureInfo.InvariantCulture))}')",
            1 => $"search(Note, '{Word()} {Misspell(Word())}~1')",
            2 => $"search(Note, '\"{NotePhrases[random.Next(NotePhrases.Length)]}\"~{random.Next(5)}')",
            3 => $"proximity(search(Note, '{NotePhrases[random.Next(NotePhrases.Length)]}'), {random.Next(5)})",
            4 => $"fuzzy(Employee = '{Misspell(FuzzyNames[random.Next(FuzzyNames.Length)])}', {(random.Next(2) == 0 ? "0.5" : random.Next(3).ToString(System.Globalization.CultureInfo.InvariantCulture))})",
            5 => $"boost(search(Note, '{Word()}'), {1 + random.Next(20)}) or search(Note, '{Word()} {Word()}')",
            _ => $"boost(Status = 'Pending', {1 + random.Next(5)}) or boost(search(Note, '{Misspell(Word())}~'), 0.5)",
        };
        var filter = random.Next(3) switch { 0 => "", 1 => " and Total > 100", _ => " and not Paid = true" };
        var (order, ranked) = random.Next(3) switch { 0 => (" order by score()", true), 1 => (" order by Total as double desc", false), _ => ("", false) };
        return ($"from Orders where ({where}){filter}{order}", ranked);
    }

    /// <summary>Asks both engines: what differs (null when they agree), and whether both answered with rows.</summary>
    private static async Task<(string? Failure, bool Answered)> CompareAsync(QueryRunner[] engines, string rql, string? parameters, bool asSet)
    {
        var answers = new string[engines.Length];
        var answered = true;
        for (var e = 0; e < engines.Length; e++)
        {
            try
            {
                using var result = await RunAsync(engines[e], rql, parameters);
                answers[e] = Describe(result, asSet);
                answered &= result.TotalResults > 0;
            }
            catch (Exception ex) when (ex is QueryException or Indexing.Rql.RqlParseException)
            {
                answers[e] = $"{ex.GetType().Name}: {ex.Message}";
                answered = false;
            }
        }
        return (answers[0] == answers[1] ? null : $"{rql} {parameters}\n  Folio:  {Shorten(answers[0])}\n  Lucene: {Shorten(answers[1])}", answered);
    }

    private static Task<QueryResult> RunAsync(QueryRunner runner, string rql, string? parameters) => runner.RunAsync(rql, new QueryOptions
    {
        WaitForNonStaleResults = true,
        WaitTimeout = TimeSpan.FromMinutes(10),
        // Every row of an unordered answer, so comparing it as a set compares all of it, not a page of a different order.
        MaxPageSize = 100_000,
        Parameters = parameters is null ? null : JsonDocument.Parse(parameters).RootElement.Clone(),
    });

    /// <summary>The answer as text: totals, rows (in order, or sorted when compared as a set) and facets.</summary>
    private static string Describe(QueryResult result, bool asSet)
    {
        Assert.False(result.IsStale);
        var rows = new List<string>();
        foreach (var row in result.Results)
            rows.Add(Encoding.UTF8.GetString(row.Span));
        if (asSet)
            rows.Sort(StringComparer.Ordinal);
        return $"total {result.TotalResults}, skipped {result.SkippedResults}; rows [{string.Join(", ", rows)}]; facets {JsonSerializer.Serialize(result.Facets)}";
    }

    private static string Shorten(string text) => text.Length <= 1500 ? text : text[..1500] + "…";

    private static async Task LoadAsync(DocumentStore store, IReadOnlyList<OracleDocument> documents)
    {
        for (var start = 0; start < documents.Count; start += BatchSize)
        {
            var commands = new List<DocumentCommand>(BatchSize);
            foreach (var document in documents.Skip(start).Take(BatchSize))
                commands.Add(new DocumentCommand(DocumentCommandType.Put, document.Id, PreparedDocument.Parse(Encoding.UTF8.GetBytes(document.Json)), null));
            await store.BatchAsync(commands);
        }
    }
}
