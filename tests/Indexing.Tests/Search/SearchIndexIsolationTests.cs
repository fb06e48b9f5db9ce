using Folio.Indexing.Collectors;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Indexing.Tests.Search;

/// <summary>Searchers keep their snapshot while a writer commits batch after batch on another thread.</summary>
public class SearchIndexIsolationTests
{
    private const int PerBatch = 20;
    private const int Batches = 120;

    private static IndexSchema Schema() => new IndexSchema()
        .Add("State", FieldKind.Exact)
        .Add("Batch", FieldKind.Long)
        .Add("Body", FieldKind.FullText);

    private static string Key(int batch, int i) => $"b{batch}/{i}";

    /// <summary>What a searcher sees; equal across checks for as long as the searcher lives.</summary>
    private readonly record struct Seen(long Entries, long Live, long Old, long Text, long LatestBatch, long LiveInLatestBatch);

    private static Seen Look(IndexSearcher searcher)
    {
        var latest = searcher.Search(MatchAllQuery.Instance, 0, 1, [new SortField("Batch", Descending: true)]).Hits;
        var latestBatch = latest.Count == 0 ? 0 : searcher.GetValues("Batch", latest[0].EntryId)![0].Long;
        return new Seen(
            searcher.EntryCount,
            searcher.Count(new TermQuery("State", FieldValue.From("live"))),
            searcher.Count(new TermQuery("State", FieldValue.From("old"))),
            searcher.Count(new FullTextQuery("Body", "entry")),
            latestBatch,
            searcher.Count(new AndQuery([new TermQuery("State", FieldValue.From("live")), new TermQuery("Batch", FieldValue.From(latestBatch))])));
    }

    /// <summary>A whole number of batches: the last one all live, every earlier one all old, minus the deletes of whole batches.</summary>
    private static void AssertWhole(Seen seen)
    {
        var deleted = (seen.LatestBatch / 10) * 5;
        var expected = seen.LatestBatch == 0 ? new Seen(0, 0, 0, 0, 0, 0)
            : new Seen(seen.LatestBatch * PerBatch - deleted, PerBatch, seen.LatestBatch * PerBatch - deleted - PerBatch, seen.LatestBatch * PerBatch - deleted, seen.LatestBatch, PerBatch);
        Assert.Equal(expected, seen);
    }

    [Fact]
    public async Task Searcher_OpenedBeforeABatch_NeverSeesIt_WhileAWriterCommitsContinuously()
    {
        using var index = SearchIndex.Open(StorageOptions.InMemory(), Schema());
        var commits = new CommitSignal();
        // Each look a reader takes lets the writer commit one more batch, so commits and checks
        // interleave however the threads are scheduled (and the writer never runs off alone).
        using var looks = new SemaphoreSlim(0);
        using var failed = new CancellationTokenSource();
        var writer = Task.Run(async () =>
        {
            try
            {
                for (var n = 1; n <= Batches; n++)
                {
                    if (n > 1)
                        await looks.WaitAsync(failed.Token);
                    using var batch = index.BeginBatch();
                    for (var i = 0; i < PerBatch; i++)
                    {
                        // The previous batch's entries turn old (an update each); this batch's are live.
                        if (n > 1 && batch.Delete(Key(n - 1, i)))
                            batch.Add(new IndexEntry(Key(n - 1, i)).Add("State", "old").Add("Batch", n - 1).Add("Body", $"old entry {i}"));
                        batch.Add(new IndexEntry(Key(n, i)).Add("State", "live").Add("Batch", n).Add("Body", $"live entry {i}"));
                    }
                    if (n % 10 == 0)
                    {
                        for (var i = 0; i < 5; i++)
                            Assert.True(batch.Delete(Key(n - 5, i)));
                    }
                    batch.Commit();
                    commits.Publish(n);
                }
            }
            finally
            {
                commits.Complete();
            }
        });

        var readers = Enumerable.Range(0, 2).Select(_ => Task.Run(async () =>
        {
            try
            {
                return await ReadAsync(index, commits, looks);
            }
            catch
            {
                await failed.CancelAsync();
                throw;
            }
        })).ToArray();
        var checks = await Task.WhenAll(readers);
        await writer;
        // Searchers were re-checked after later commits many times.
        Assert.True(checks.Sum() >= Batches / 2, $"only {checks.Sum()} checks after later commits");

        using var last = index.OpenSearcher();
        var seen = Look(last);
        Assert.Equal(Batches, seen.LatestBatch);
        AssertWhole(seen);
        index.Environment.Verify();
    }

    private static async Task<int> ReadAsync(SearchIndex index, CommitSignal commits, SemaphoreSlim looks)
    {
        var checks = 0;
        while (!commits.IsComplete)
        {
            var before = commits.Latest;
            using var searcher = index.OpenSearcher();
            var first = Look(searcher);
            AssertWhole(first);
            // Published before the searcher opened: it sees at least that much.
            Assert.True(first.LatestBatch >= before, $"a searcher opened after batch {before} sees only {first.LatestBatch}");
            looks.Release();
            for (var k = 1; k <= 3; k++)
            {
                // Wait until k more batches have committed after the searcher's own snapshot.
                if (!await commits.WaitForAsync(first.LatestBatch + k))
                    break;
                Assert.Equal(first, Look(searcher));
                looks.Release();
                checks++;
            }
        }
        return checks;
    }

    /// <summary>The number of committed batches, and a way to await a given number without polling.</summary>
    private sealed class CommitSignal
    {
        private readonly Lock _lock = new();
        private TaskCompletionSource _next = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private long _latest;
        private bool _complete;

        public long Latest
        {
            get
            {
                lock (_lock)
                    return _latest;
            }
        }

        public bool IsComplete
        {
            get
            {
                lock (_lock)
                    return _complete;
            }
        }

        public void Publish(long committed) => Signal(() => _latest = committed);

        public void Complete() => Signal(() => _complete = true);

        /// <summary>True once <paramref name="target"/> batches have committed; false if the writer stops first.</summary>
        public async Task<bool> WaitForAsync(long target)
        {
            while (true)
            {
                Task next;
                lock (_lock)
                {
                    if (_latest >= target)
                        return true;
                    if (_complete)
                        return false;
                    next = _next.Task;
                }
                await next;
            }
        }

        private void Signal(Action change)
        {
            TaskCompletionSource fired;
            lock (_lock)
            {
                change();
                fired = _next;
                _next = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            }
            fired.TrySetResult();
        }
    }
}
