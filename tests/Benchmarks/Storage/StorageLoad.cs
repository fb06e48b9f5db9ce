using System.Diagnostics;
using System.Globalization;
using Folio.Benchmarks.Storage.Lmdb;
using Folio.Storage;
using Folio.Storage.Merging;
using Folio.Storage.Transactions;

namespace Folio.Benchmarks.Storage;

/// <summary>
/// Whole-workload comparison of Folio's storage engine with LMDB: durable inserts, random reads,
/// read-transaction cost and merged commits, each run <c>--runs</c> times on fresh directories,
/// printed as one markdown table. Shapes this long (10,000 durable commits) are a poor fit for
/// BenchmarkDotNet's many-iteration model, so they are timed here once per run with a Stopwatch.
/// <code>dotnet run -c Release --project tests/Benchmarks -- storage-load [--items 1000000] [--runs 3] [--dir /tmp]</code>
/// </summary>
internal static class StorageLoad
{
    public const string Command = "storage-load";

    public static int Run(string[] args)
    {
        Settings settings;
        try
        {
            settings = Settings.Parse(args);
        }
        catch (ArgumentException e)
        {
            Console.Error.WriteLine(e.Message);
            Console.Error.WriteLine("usage: storage-load [--items N] [--batch N] [--reads N] [--runs N] [--writers N] [--per-writer N] [--commits N] [--dir PATH]");
            return 2;
        }

        var root = StorageWorkload.FreshDirectory(settings.Directory, $"folio-storage-load-{Environment.ProcessId}");
        try
        {
            var results = new Results();
            var loadAtStart = MachineInfo.LoadAverage();
            Progress("warm-up (not recorded)");
            RunOnce(settings.WarmUp(), root, new Results());
            for (var run = 1; run <= settings.Runs; run++)
            {
                Progress($"run {run} of {settings.Runs}");
                RunOnce(settings, root, results);
            }
            Print(settings, root, results, loadAtStart);
            return 0;
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }

    private static void RunOnce(Settings settings, string root, Results results)
    {
        var value = StorageWorkload.Value(StorageWorkload.ValueSize);
        var sequential = StorageWorkload.SequentialKeys(settings.Items);
        var random = StorageWorkload.RandomKeys(settings.Items, seed: 17);

        results.Add("folio.seq", FolioInsert(root, sequential, settings, value, results, "folio.seq.flush-ms"));
        results.Add("lmdb.seq", LmdbInsert(root, sequential, settings, value));

        var folioDir = StorageWorkload.FreshDirectory(root, "folio");
        using (var env = StorageWorkload.OpenFolio(folioDir))
        {
            results.Add("folio.rand", Rate(settings.Items, () => StorageWorkload.FolioInsert(env, random, 0, settings.Items, settings.Batch, value)));
            results.Add("folio.rand.flush-ms", Milliseconds(env.FlushToDataFile));
            results.Add("folio.read1", ReadRate(1, settings, t => StorageWorkload.FolioRead(env, random, settings.Items, settings.Reads, seed: t)));
            results.Add("folio.read2", ReadRate(2, settings, t => StorageWorkload.FolioRead(env, random, settings.Items, settings.Reads, seed: t)));
            var (ns, bytes) = FolioReadTransaction(env, settings.TransactionLoops);
            results.Add("folio.txn-ns", ns);
            results.Add("folio.txn-bytes", bytes);
        }
        var lmdbDir = StorageWorkload.FreshDirectory(root, "lmdb");
        using (var env = new LmdbEnvironment(lmdbDir))
        {
            results.Add("lmdb.rand", Rate(settings.Items, () => StorageWorkload.LmdbInsert(env, random, 0, settings.Items, settings.Batch, value)));
            results.Add("lmdb.read1", ReadRate(1, settings, t => StorageWorkload.LmdbRead(env, random, settings.Items, settings.Reads, seed: t)));
            results.Add("lmdb.read2", ReadRate(2, settings, t => StorageWorkload.LmdbRead(env, random, settings.Items, settings.Reads, seed: t)));
            var (renewNs, renewBytes) = LmdbRenewReset(env, settings.TransactionLoops);
            results.Add("lmdb.renew-ns", renewNs);
            results.Add("lmdb.renew-bytes", renewBytes);
            results.Add("lmdb.begin-ns", LmdbBeginAbort(env, settings.TransactionLoops));
        }

        // Increasing keys are the shape of generated document ids; random keys spread the same
        // values over as many leaves as there are values, which is what a merged transaction pays for.
        var kilobyte = StorageWorkload.Value(1024);
        var mergedItems = settings.Writers * settings.PerWriter;
        foreach (var (pattern, keys) in new[]
                 {
                     ("seq", StorageWorkload.SequentialKeys(Math.Max(settings.Commits, mergedItems))),
                     ("rand", StorageWorkload.RandomKeys(Math.Max(settings.Commits, mergedItems), seed: 23)),
                 })
        {
            results.Add($"folio.single.{pattern}", FolioSingleWriter(root, keys, settings.Commits, kilobyte));
            var (burst, burstPerTransaction) = FolioMergedWriters(root, settings.Writers, mergedItems, keys, kilobyte, sustained: false);
            results.Add($"folio.burst.{pattern}", burst);
            results.Add($"folio.burst.{pattern}.ops-per-txn", burstPerTransaction);
            var (merged, perTransaction) = FolioMergedWriters(root, settings.Writers, mergedItems, keys, kilobyte, sustained: true);
            results.Add($"folio.merged.{pattern}", merged);
            results.Add($"folio.merged.{pattern}.ops-per-txn", perTransaction);
            results.Add($"lmdb.single.{pattern}", LmdbSingleWriter(root, keys, settings.Commits, kilobyte));
        }
    }

    private static double FolioInsert(string root, byte[] keys, Settings settings, byte[] value, Results results, string flushKey)
    {
        var dir = StorageWorkload.FreshDirectory(root, "folio");
        using var env = StorageWorkload.OpenFolio(dir);
        var rate = Rate(settings.Items, () => StorageWorkload.FolioInsert(env, keys, 0, settings.Items, settings.Batch, value));
        // Every commit is durable in the journal when it returns; applying the rest to the data file is
        // background work the timed loop did not wait for, so it is reported on its own.
        results.Add(flushKey, Milliseconds(env.FlushToDataFile));
        return rate;
    }

    private static double LmdbInsert(string root, byte[] keys, Settings settings, byte[] value)
    {
        var dir = StorageWorkload.FreshDirectory(root, "lmdb");
        using var env = new LmdbEnvironment(dir);
        return Rate(settings.Items, () => StorageWorkload.LmdbInsert(env, keys, 0, settings.Items, settings.Batch, value));
    }

    private static double ReadRate(int threads, Settings settings, Func<int, long> read)
    {
        var elapsed = Stopwatch.StartNew();
        StorageWorkload.OnThreads(threads, t => read(t + 1));
        return (double)threads * settings.Reads / elapsed.Elapsed.TotalSeconds;
    }

    private static (double Nanoseconds, double Bytes) FolioReadTransaction(StorageEnvironment env, int loops)
    {
        for (var i = 0; i < 1000; i++)
            env.BeginRead().Dispose();
        var allocated = GC.GetAllocatedBytesForCurrentThread();
        var started = Stopwatch.GetTimestamp();
        for (var i = 0; i < loops; i++)
            env.BeginRead().Dispose();
        var elapsed = Stopwatch.GetElapsedTime(started);
        return (elapsed.TotalNanoseconds / loops, (double)(GC.GetAllocatedBytesForCurrentThread() - allocated) / loops);
    }

    private static (double Nanoseconds, double Bytes) LmdbRenewReset(LmdbEnvironment env, int loops)
    {
        var txn = env.BeginRead();
        LmdbEnvironment.Reset(txn);
        try
        {
            for (var i = 0; i < 1000; i++)
            {
                LmdbEnvironment.Renew(txn);
                LmdbEnvironment.Reset(txn);
            }
            var allocated = GC.GetAllocatedBytesForCurrentThread();
            var started = Stopwatch.GetTimestamp();
            for (var i = 0; i < loops; i++)
            {
                LmdbEnvironment.Renew(txn);
                LmdbEnvironment.Reset(txn);
            }
            var elapsed = Stopwatch.GetElapsedTime(started);
            return (elapsed.TotalNanoseconds / loops, (double)(GC.GetAllocatedBytesForCurrentThread() - allocated) / loops);
        }
        finally
        {
            LmdbEnvironment.Abort(txn);
        }
    }

    private static double LmdbBeginAbort(LmdbEnvironment env, int loops)
    {
        for (var i = 0; i < 1000; i++)
            LmdbEnvironment.Abort(env.BeginRead());
        var started = Stopwatch.GetTimestamp();
        for (var i = 0; i < loops; i++)
            LmdbEnvironment.Abort(env.BeginRead());
        return Stopwatch.GetElapsedTime(started).TotalNanoseconds / loops;
    }

    private static double FolioSingleWriter(string root, byte[] keys, int commits, byte[] value)
    {
        var dir = StorageWorkload.FreshDirectory(root, "folio");
        using var env = StorageWorkload.OpenFolio(dir);
        return Rate(commits, () => StorageWorkload.FolioInsert(env, keys, 0, commits, 1, value));
    }

    private static double LmdbSingleWriter(string root, byte[] keys, int commits, byte[] value)
    {
        var dir = StorageWorkload.FreshDirectory(root, "lmdb");
        using var env = new LmdbEnvironment(dir);
        return Rate(commits, () => StorageWorkload.LmdbInsert(env, keys, 0, commits, 1, value));
    }

    /// <summary>
    /// <paramref name="writers"/> callers committing one value each through the merger. In bursts
    /// (the issue's shape) all of them queue a value at once and the next burst starts when every
    /// value of this one is durable. Sustained, each caller queues its next value as soon as its
    /// last one is durable, so a commit always finds the callers it did not serve already queued:
    /// batches settle at about half the callers. Keys come from a shared counter, so increasing
    /// keys arrive in about the order they were handed out.
    /// </summary>
    private static (double Rate, double OperationsPerTransaction) FolioMergedWriters(string root, int writers, int items, byte[] keys, byte[] value, bool sustained)
    {
        var dir = StorageWorkload.FreshDirectory(root, "folio");
        using var env = StorageWorkload.OpenFolio(dir);
        var merger = env.Merger;
        var transactionsBefore = merger.MergedTransactions;
        var next = -1;
        var tasks = new Task[writers];
        var rate = Rate(items, () =>
        {
            if (sustained)
            {
                for (var w = 0; w < writers; w++)
                {
                    tasks[w] = Task.Run(async () =>
                    {
                        for (var i = Interlocked.Increment(ref next); i < items; i = Interlocked.Increment(ref next))
                            await merger.EnqueueAsync(new PutOperation(keys, i, value)).ConfigureAwait(false);
                    });
                }
                Task.WaitAll(tasks);
                return;
            }
            for (var first = 0; first < items; first += writers)
            {
                for (var w = 0; w < writers; w++)
                    tasks[w] = Task.Run(() => merger.EnqueueAsync(new PutOperation(keys, Interlocked.Increment(ref next), value)));
                Task.WaitAll(tasks);
            }
        });
        return (rate, (double)items / (merger.MergedTransactions - transactionsBefore));
    }

    private sealed class PutOperation(byte[] keys, int index, byte[] value) : MergedOperation
    {
        public override long EstimatedBytes => StorageWorkload.KeySize + value.Length;

        public override void Execute(WriteTransaction transaction)
        {
            var tree = transaction.OpenTree(StorageWorkload.TreeName) ?? throw new InvalidOperationException("The benchmark tree is missing.");
            tree.Put(StorageWorkload.Key(keys, index), value);
        }
    }

    private static double Rate(int items, Action work)
    {
        var elapsed = Stopwatch.StartNew();
        work();
        return items / elapsed.Elapsed.TotalSeconds;
    }

    private static double Milliseconds(Action work)
    {
        var elapsed = Stopwatch.StartNew();
        work();
        return elapsed.Elapsed.TotalMilliseconds;
    }

    private static void Progress(string message) => Console.Error.WriteLine($"[{DateTime.Now:HH:mm:ss}] {message}");

    private static void Print(Settings settings, string root, Results results, string loadAtStart)
    {
        var output = Console.Out;
        output.WriteLine("## Storage engine vs LMDB (storage-load)");
        output.WriteLine();
        foreach (var line in MachineInfo.Describe(root))
            output.WriteLine(line);
        output.WriteLine($"- Settings: {settings}");
        output.WriteLine($"- Load average (1/5/15 min): {loadAtStart} at start, {MachineInfo.LoadAverage()} at end");
        output.WriteLine();
        output.WriteLine("Each cell: best of the runs, then every run in order. Ratio = Folio / LMDB (or the named baseline) on the best values.");
        output.WriteLine();
        output.WriteLine("| Shape | Folio | LMDB / baseline | Ratio | Target | Met |");
        output.WriteLine("| --- | --- | --- | --- | --- | --- |");
        var perTx = $"{settings.Batch} per txn";
        Row(results, $"Sequential insert, items/s ({perTx})", "folio.seq", "lmdb.seq", null, higherIsBetter: true, ">= 1.5x LMDB", ratio => ratio >= 1.5);
        Row(results, $"Random insert, items/s ({perTx})", "folio.rand", "lmdb.rand", null, higherIsBetter: true, ">= 1.5x LMDB", ratio => ratio >= 1.5);
        Row(results, "Random reads, 1 thread, reads/s", "folio.read1", "lmdb.read1", null, higherIsBetter: true, ">= 0.8x LMDB", ratio => ratio >= 0.8);
        Row(results, "Random reads, 2 threads, reads/s", "folio.read2", "lmdb.read2", null, higherIsBetter: true, ">= 0.8x LMDB", ratio => ratio >= 0.8);
        Row(results, "Read txn open+close, ns (LMDB: renew+reset)", "folio.txn-ns", "lmdb.renew-ns", null, higherIsBetter: false, "<= 100 ns", _ => Best(results["folio.txn-ns"], false) <= 100);
        Row(results, "Read txn open+close, ns (LMDB: begin+abort)", "folio.txn-ns", "lmdb.begin-ns", null, higherIsBetter: false, "<= 100 ns", _ => Best(results["folio.txn-ns"], false) <= 100);
        Row(results, "Read txn open+close, bytes allocated", "folio.txn-bytes", "lmdb.renew-bytes", null, higherIsBetter: false, "0 bytes", _ => Best(results["folio.txn-bytes"], false) == 0);
        foreach (var (pattern, name) in new[] { ("seq", "increasing keys"), ("rand", "random keys") })
        {
            Row(results, $"1 KB value per durable commit, one writer, {name}, items/s", $"folio.single.{pattern}", $"lmdb.single.{pattern}", null, higherIsBetter: true, "(reference)", null);
            Row(results, $"{settings.Writers} writers x 1 KB through the merger, bursts, {name}, items/s", $"folio.burst.{pattern}", $"folio.single.{pattern}", "Folio one writer", higherIsBetter: true, ">= 50x one writer", ratio => ratio >= 50);
            Row(results, $"{settings.Writers} writers x 1 KB through the merger, sustained, {name}, items/s", $"folio.merged.{pattern}", $"folio.single.{pattern}", "Folio one writer", higherIsBetter: true, "(>= 50x one writer)", ratio => ratio >= 50);
        }
        output.WriteLine();
        foreach (var (pattern, name) in new[] { ("seq", "increasing keys"), ("rand", "random keys") })
        {
            string VersusLmdb(string key) => (Best(results[key], true) / Best(results[$"lmdb.single.{pattern}"], true)).ToString("F1", CultureInfo.InvariantCulture);
            output.WriteLine($"- Merger, {name}: operations per merged transaction {Cell(results[$"folio.burst.{pattern}.ops-per-txn"], true, "F1")} in bursts, "
                             + $"{Cell(results[$"folio.merged.{pattern}.ops-per-txn"], true, "F1")} sustained; vs LMDB's one-writer rate {VersusLmdb($"folio.burst.{pattern}")}x in bursts, {VersusLmdb($"folio.merged.{pattern}")}x sustained");
        }
        output.WriteLine($"- Folio applying the rest of the journal to the data file after the timed loop (not in the insert rates), ms: sequential {Cell(results["folio.seq.flush-ms"], false, "F0")}, random {Cell(results["folio.rand.flush-ms"], false, "F0")}");
    }

    private static void Row(Results results, string shape, string folioKey, string peerKey, string? peerName, bool higherIsBetter, string target, Func<double, bool>? meets)
    {
        var folio = results[folioKey];
        var peer = results[peerKey];
        var folioBest = Best(folio, higherIsBetter);
        var peerBest = Best(peer, higherIsBetter);
        var ratio = peerBest == 0 ? double.NaN : folioBest / peerBest;
        var ratioText = double.IsNaN(ratio) ? "-" : ratio.ToString("F2", CultureInfo.InvariantCulture) + "x";
        var met = meets is null ? "-" : meets(ratio) ? "yes" : "**no**";
        var peerCell = (peerName is null ? "" : peerName + ": ") + Cell(peer, higherIsBetter, "N0");
        Console.Out.WriteLine($"| {shape} | {Cell(folio, higherIsBetter, "N0")} | {peerCell} | {ratioText} | {target} | {met} |");
    }

    private static double Best(List<double> samples, bool higherIsBetter) => higherIsBetter ? samples.Max() : samples.Min();

    private static string Cell(List<double> samples, bool higherIsBetter, string format)
    {
        string F(double v) => v.ToString(v < 100 && format == "N0" ? "N1" : format, CultureInfo.InvariantCulture);
        var best = F(Best(samples, higherIsBetter));
        return samples.Count == 1 ? best : $"{best} ({string.Join(", ", samples.Select(F))})";
    }

    private sealed class Results : Dictionary<string, List<double>>
    {
        public void Add(string key, double value)
        {
            if (!TryGetValue(key, out var samples))
                this[key] = samples = [];
            samples.Add(value);
            Progress($"  {key} = {value.ToString("N1", CultureInfo.InvariantCulture)}");
        }
    }

    private sealed record Settings(int Items, int Batch, int Reads, int Runs, int Writers, int PerWriter, int Commits, int TransactionLoops, string Directory)
    {
        public static Settings Parse(string[] args)
        {
            int items = 1_000_000, batch = 100, runs = 3, writers = 64, perWriter = 100, commits = 2000;
            int? reads = null;
            var directory = Path.GetTempPath();
            for (var i = 0; i < args.Length; i++)
            {
                var name = args[i];
                if (i + 1 >= args.Length)
                    throw new ArgumentException($"{name} needs a value");
                var text = args[++i];
                if (name == "--dir")
                {
                    directory = text;
                    continue;
                }
                if (!int.TryParse(text.Replace("_", ""), NumberStyles.Integer, CultureInfo.InvariantCulture, out var number) || number <= 0)
                    throw new ArgumentException($"{name} needs a positive whole number, not '{text}'");
                switch (name)
                {
                    case "--items": items = number; break;
                    case "--batch": batch = number; break;
                    case "--reads": reads = number; break;
                    case "--runs": runs = number; break;
                    case "--writers": writers = number; break;
                    case "--per-writer": perWriter = number; break;
                    case "--commits": commits = number; break;
                    default: throw new ArgumentException($"unknown option {name}");
                }
            }
            return new Settings(items, batch, reads ?? items, runs, writers, perWriter, commits, 1_000_000, directory);
        }

        /// <summary>A small pass that gets every path compiled by the tiered JIT before anything is timed.</summary>
        public Settings WarmUp() => this with
        {
            Items = Math.Min(Items, 20_000),
            Reads = Math.Min(Reads, 20_000),
            PerWriter = Math.Min(PerWriter, 5),
            Commits = Math.Min(Commits, 100),
            TransactionLoops = 10_000,
        };

        public override string ToString() =>
            $"--items {Items} --batch {Batch} --reads {Reads} (per thread) --runs {Runs} --writers {Writers} --per-writer {PerWriter} --commits {Commits}; read txn loops {TransactionLoops}";
    }
}
