using BenchmarkDotNet.Running;
using Folio.Benchmarks.BulkLoad;
using Folio.Benchmarks.Client;
using Folio.Benchmarks.Facets;
using Folio.Benchmarks.Http;
using Folio.Benchmarks.MapReduce;
using Folio.Benchmarks.Paging;
using Folio.Benchmarks.Search;
using Folio.Benchmarks.Storage;
using Folio.Benchmarks.Subscriptions;

namespace Folio.Benchmarks;

/// <summary>
/// Runs the BenchmarkDotNet suites: <c>dotnet run -c Release --project tests/Benchmarks -- --filter '*Name*'</c>.
/// Whole-workload drivers that BenchmarkDotNet's iteration model does not fit are named commands instead:
/// <c>storage-load</c> (Folio vs LMDB), <c>journal-sync</c> (the journal's write-and-sync choice),
/// <c>journal-compression</c> (whether compressing journal records would pay),
/// <c>search-load</c> (Folio's search engine vs Java Lucene and Lucene.Net), <c>index-update</c> (replacing entries of Folio's search index),
/// <c>lucenenet-directory-stress</c> (whether a Lucene.Net directory survives searches during commits and refreshes), <c>bulk-load</c> and <c>bulk-profile</c>
/// (bulk insert vs the disk and PouchDB Server; see <see cref="BulkLoadDriver"/>), <c>http-load</c>
/// (documents over HTTP vs bare Kestrel and PouchDB Server), <c>query-load</c> (indexing and queries over HTTP) and
/// <c>mapreduce-load</c> (map/reduce index builds and incremental updates vs static indexes, SQLite and PouchDB Server) and
/// <c>facet-load</c> (RQL facets vs Java Lucene's facet module and vs one count query per value) and
/// <c>subscription-load</c> (reading a collection through a data subscription over TCP vs the REST stream) and
/// <c>paging-skip</c> (skipping to a deep row of a listing by index leaves vs one document at a time) and
/// <c>client-overhead</c> (Folio.Client's session per load and per stored entity vs plain HttpClient calls) and
/// <c>transfer-load</c> (export, import, backup and restore of a large database, and whether the copies are identical).
/// <c>spatial-load</c> (circle queries over a spatial field of each engine vs a haversine scan) and
/// <c>patch-load</c> (a patch by query over every document vs bulk PUTs of them, and another writer's latency meanwhile) and
/// <c>term-set</c> (an <c>in</c> list of 100,000 values on a million entries, before and after the term-set query, vs Lucene.Net) and
/// <c>storage-cost</c> (bytes on disk for generated orders, the search records or Debian's package lists, live and after a clean stop, vs the raw JSON and PouchDB Server) and
/// <c>id-fill</c> (the leaf fill of every tree for each id shape, written in-process) and
/// <c>compaction-levels</c> (what each Zstd level a compaction recompresses at gives, costs and reads at) and
/// <c>dictionary-cost</c> (the CPU of one dictionary training and of compressing a body with and without it) and
/// <c>many-dbs</c> (threads, memory and descriptors with a database per tenant, first requests to unloaded databases and restart time, vs PouchDB Server) and
/// <c>projection-load</c> (JavaScript projections of 10,000 results vs the plain projection of the same fields) and
/// <c>script-map-load</c> (a map index built through Jint vs the same map as paths) and
/// <c>soak</c> (a long mixed load, sampling memory, threads, descriptors and p99s against bounds).
/// </summary>
public static class BenchmarkEntry
{
    private static readonly Dictionary<string, Func<string[], Task<int>>> Commands = new(StringComparer.Ordinal)
    {
        [StorageLoad.Command] = args => Task.FromResult(StorageLoad.Run(args)),
        [JournalSync.Command] = args => Task.FromResult(JournalSync.Run(args)),
        [JournalCompression.Command] = args => Task.FromResult(JournalCompression.Run(args)),
        [Compaction.CompactLoadCommand.Command] = Compaction.CompactLoadCommand.RunAsync,
        ["search-load"] = args => Task.FromResult(SearchLoadCommand.Run(args)),
        [IndexUpdateCommand.Command] = args => Task.FromResult(IndexUpdateCommand.Run(args)),
        [Search.LuceneNet.DirectoryStressCommand.Command] = args => Task.FromResult(Search.LuceneNet.DirectoryStressCommand.Run(args)),
        ["bulk-load"] = BulkLoadDriver.RunAsync,
        ["bulk-profile"] = BulkProfile.RunAsync,
        [HttpLoadCommand.Command] = args => Task.FromResult(HttpLoadCommand.Run(args)),
        [AuthLoadCommand.Command] = args => Task.FromResult(AuthLoadCommand.Run(args)),
        [QueryLoadCommand.Command] = args => Task.FromResult(QueryLoadCommand.Run(args)),
        [MapReduceLoadCommand.Command] = args => Task.FromResult(MapReduceLoadCommand.Run(args)),
        [FacetLoadCommand.Command] = FacetLoadCommand.RunAsync,
        [SubscriptionLoadCommand.Command] = SubscriptionLoadCommand.RunAsync,
        [DeepPagingSkip.Command] = DeepPagingSkip.RunAsync,
        [ClientOverheadCommand.Command] = ClientOverheadCommand.RunAsync,
        [Transfer.TransferLoadCommand.Command] = Transfer.TransferLoadCommand.RunAsync,
        [Spatial.SpatialQueryCommand.Command] = args => Task.FromResult(Spatial.SpatialQueryCommand.Run(args)),
        [Patching.PatchLoadCommand.Command] = Patching.PatchLoadCommand.RunAsync,
        [TermSetCommand.Command] = args => Task.FromResult(TermSetCommand.Run(args)),
        [StorageCostCommand.Command] = StorageCostCommand.RunAsync,
        [IdFillCommand.Command] = IdFillCommand.RunAsync,
        [CompactionLevelsCommand.Command] = CompactionLevelsCommand.RunAsync,
        [FormatMoveCommand.Command] = FormatMoveCommand.RunAsync,
        [DictionaryCostCommand.Command] = args => Task.FromResult(DictionaryCostCommand.Run(args)),
        [ManyDatabases.ManyDatabasesCommand.Command] = ManyDatabases.ManyDatabasesCommand.RunAsync,
        [ManyDatabases.FairnessCommand.Command] = ManyDatabases.FairnessCommand.RunAsync,
        [Scripting.ScriptMapLoadCommand.Command] = Scripting.ScriptMapLoadCommand.RunAsync,
        [Scripting.ProjectionLoadCommand.Command] = Scripting.ProjectionLoadCommand.RunAsync,
        [Soak.SoakCommand.Command] = Soak.SoakCommand.RunAsync,
    };

    public static async Task<int> Main(string[] args)
    {
        if (args.Length > 0 && Commands.TryGetValue(args[0], out var command))
            return await command(args[1..]);
        BenchmarkSwitcher.FromAssembly(typeof(BenchmarkEntry).Assembly).Run(args);
        return 0;
    }
}
