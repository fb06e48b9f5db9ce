using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Search;
using Folio.Storage;
using Folio.Storage.Platform;

namespace Folio.Indexing.Tests.Search;

/// <summary>
/// What batches add to a field's terms, kept in runs (<see cref="PostingRuns"/>) once the terms tree is large: every
/// term's main postings and run entries checked against a model after each batch of additions and removals, through
/// eight runs and several folds, and read back through <see cref="TermIterator"/> as queries read them.
/// </summary>
public class PostingRunsTests
{
    private const string TermsTree = "t";
    private const string RunsTree = "u";
    private const string SealedTree = "s";

    private static StorageOptions Storage() => StorageOptions.InMemory() with { FileSystem = new MemoryFileSystem() };

    private static byte[] Term(string text) => TermEncoding.Text(text);

    /// <summary>A term's changes in one batch.</summary>
    private sealed class Change
    {
        public List<long> Additions { get; } = [];
        public List<long> Removals { get; } = [];
    }

    /// <summary>Applies one batch's changes, term by term in key order, as a batch's flush does.</summary>
    private static void Apply(StorageEnvironment environment, long firstIdOfBatch, SortedDictionary<string, Change> changes)
    {
        using var tx = environment.BeginWrite();
        var runs = new PostingRuns(tx, RunsTree, new PostingStore(tx.CreateTree(TermsTree), () => tx.CreateTree(SealedTree), withFrequencies: true), firstIdOfBatch, fullText: true);
        foreach (var (term, change) in changes)
        {
            var additions = change.Additions.Order().ToArray();
            // A frequency that depends on the id shows frequencies travel with their ids through runs and folds.
            var frequencies = additions.Select(id => (int)(id % 5) + 1).ToArray();
            runs.Apply(Term(term), additions, frequencies, change.Removals.Order().Distinct().ToArray());
        }
        runs.Finish();
        tx.Commit();
    }

    /// <summary>
    /// Fills the terms tree with <paramref name="count"/> terms of one id each (ids from <paramref name="firstId"/>), so
    /// that later batches write runs; returns the next free id.
    /// </summary>
    private static long Fill(StorageEnvironment environment, Dictionary<string, SortedSet<long>> model, long firstId, int count)
    {
        var changes = new SortedDictionary<string, Change>(StringComparer.Ordinal);
        for (var i = 0; i < count; i++)
        {
            var change = new Change();
            change.Additions.Add(firstId + i);
            changes.Add($"filler-{i:D6}", change);
            model[$"filler-{i:D6}"] = [firstId + i];
        }
        Apply(environment, firstId, changes);
        return firstId + count;
    }

    /// <summary>
    /// Every term's ids and frequencies as <see cref="TermIterator"/> reads them, checking the layout: the runs' tree
    /// exists exactly while runs wait, at most <see cref="PostingRuns.MaxRuns"/>; a run entry's ids lie between its run's
    /// start and the next's; a term's main ids lie below its run entries'; no term is in the runs without the terms tree.
    /// </summary>
    private static (Dictionary<string, List<long>> Terms, int Runs) Stored(StorageEnvironment environment, string prefix = "")
    {
        using var tx = environment.BeginRead();
        var runsTree = tx.OpenTree(RunsTree);
        var starts = PostingRuns.Starts(runsTree);
        Assert.InRange(starts.Count, 0, PostingRuns.MaxRuns);
        Assert.Equal(starts.Count > 0, runsTree is not null);
        var terms = tx.OpenTree(TermsTree)!;
        var runs = TermRuns.Open(runsTree);
        var scratch = new SearchScratch();
        var stored = new Dictionary<string, List<long>>();
        var runCounts = new List<(byte[] TermKey, int Count)>();
        var cursor = terms.CreateCursor();
        // The prefix's term key less its end marker starts the keys of the terms with that prefix.
        var from = TermEncoding.TermKey(Term(prefix))[..^2];
        for (var more = cursor.Seek(from); more && cursor.Key.StartsWith(from); more = cursor.MoveNext())
        {
            if (!TermEncoding.TryDecodeKey(cursor.Key, out var term, out var termKeyLength) || termKeyLength != cursor.Key.Length)
                continue;
            var termKey = cursor.Key.ToArray();
            var mainIds = new List<long>();
            var main = new TermIterator(terms, tx.OpenTree(SealedTree), termKey, cursor.Value, scratch, runs: null);
            while (main.MoveNext())
                mainIds.Add(main.Current);
            var all = new TermIterator(terms, tx.OpenTree(SealedTree), termKey, cursor.Value, scratch, runs);
            var ids = new List<long>();
            while (all.MoveNext())
            {
                Assert.Equal((int)(all.Current % 5) + 1, all.Frequency);
                ids.Add(all.Current);
            }
            Assert.Equal(ids.Count, all.DocumentFrequency);
            Assert.Equal(mainIds, ids.Take(mainIds.Count));
            stored.Add(System.Text.Encoding.UTF8.GetString(term), ids);
            runCounts.Add((termKey, ids.Count - mainIds.Count));
        }
        if (runs is not null)
        {
            // A walk counts the terms' run entries in key order, and again when asked for them out of order.
            var walk = runs.Walk();
            foreach (var (termKey, count) in runCounts)
                Assert.Equal(count, walk.DocumentFrequency(termKey));
            foreach (var (termKey, count) in runCounts.OrderBy(pair => pair.Count).ThenByDescending(pair => pair.TermKey.Length))
                Assert.Equal(count, walk.DocumentFrequency(termKey));
            // A walk asked for every tenth term of a run seeks past the entries between instead of stepping.
            var sparse = runs.Walk();
            for (var i = 0; i < runCounts.Count; i += 10)
                Assert.Equal(runCounts[i].Count, sparse.DocumentFrequency(runCounts[i].TermKey));
        }
        if (runsTree is not null)
        {
            var runCursor = runsTree.CreateCursor();
            for (var more = runCursor.First(); more; more = runCursor.MoveNext())
            {
                var start = System.Buffers.Binary.BinaryPrimitives.ReadInt64BigEndian(runCursor.Key);
                var run = starts.IndexOf(start);
                var end = run + 1 < starts.Count ? starts[run + 1] : long.MaxValue;
                var ids = new long[Folio.Indexing.Postings.PostingsDecoder.GetCount(runCursor.Value)];
                Folio.Indexing.Postings.PostingsDecoder.Decode(runCursor.Value, ids, default);
                Assert.All(ids, id => Assert.InRange(id, start, end - 1));
                Assert.True(terms.TryGet(runCursor.Key[PostingRuns.PrefixSize..], out _), "A term in the runs is not in the terms tree.");
            }
        }
        return (stored, starts.Count);
    }

    private static void AssertModel(Dictionary<string, SortedSet<long>> model, Dictionary<string, List<long>> stored, string prefix = "")
    {
        foreach (var (term, ids) in model)
        {
            if (!term.StartsWith(prefix, StringComparison.Ordinal))
                continue;
            if (ids.Count == 0)
                Assert.False(stored.ContainsKey(term), $"{term} is stored without postings.");
            else
                Assert.Equal(ids.ToList(), stored.TryGetValue(term, out var read) ? read : []);
        }
        Assert.Equal(model.Count(pair => pair.Value.Count > 0 && pair.Key.StartsWith(prefix, StringComparison.Ordinal)), stored.Count);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public void Apply_RandomBatches_KeepEveryTermsIdsInItsMainPostingsAndRuns(int seed)
    {
        using var environment = StorageEnvironment.Open(Storage());
        var random = new Random(seed);
        var model = new Dictionary<string, SortedSet<long>>();
        var nextId = Fill(environment, model, 0, 20_000);
        using (var tx = environment.BeginRead())
            Assert.True(tx.OpenTree(TermsTree)!.LeafPages >= PostingRuns.MinLeafPages);
        var vocabulary = Enumerable.Range(0, 60).Select(i => $"word-{i:D2}").ToArray();
        var mostRuns = 0;
        var folds = 0;
        var previousRuns = 0;
        for (var batch = 0; batch < 40; batch++)
        {
            var first = nextId;
            var changes = new SortedDictionary<string, Change>(StringComparer.Ordinal);
            Change ChangeOf(string term) => changes.TryGetValue(term, out var change) ? change : changes[term] = new Change();
            // Entries with a few words each; now and then a word in most of them (past a run entry's limit).
            var entries = random.Next(1, batch % 7 == 3 ? 1_500 : 300);
            var common = vocabulary[random.Next(vocabulary.Length)];
            for (var i = 0; i < entries; i++, nextId++)
            {
                var words = new HashSet<string>();
                for (var w = random.Next(1, 5); w > 0; w--)
                    words.Add(vocabulary[(int)Math.Min(vocabulary.Length - 1, -Math.Log(1 - random.NextDouble()) * 8)]);
                if (batch % 7 == 3)
                    words.Add(common);
                foreach (var word in words)
                    ChangeOf(word).Additions.Add(nextId);
            }
            // Removals of stored ids of random terms (whichever set holds them), now and then all of a term's, and ids a term lacks.
            foreach (var word in vocabulary.OrderBy(_ => random.Next()).Take(random.Next(0, 20)))
            {
                if (!model.TryGetValue(word, out var ids) || ids.Count == 0)
                    continue;
                var held = ids.ToList();
                var take = random.Next(4) == 0 ? held.Count : random.Next(1, Math.Min(held.Count, 40) + 1);
                foreach (var id in held.OrderBy(_ => random.Next()).Take(take))
                    ChangeOf(word).Removals.Add(id);
                ChangeOf(word).Removals.Add(random.NextInt64(first));
            }
            Apply(environment, first, changes);
            foreach (var (term, change) in changes)
            {
                var ids = model.TryGetValue(term, out var held) ? held : model[term] = [];
                ids.ExceptWith(change.Removals);
                ids.UnionWith(change.Additions);
            }
            // The filler terms are checked once at the end: reading 20,000 terms after each batch took most of the test.
            var (stored, runs) = Stored(environment, "word-");
            AssertModel(model, stored, "word-");
            mostRuns = Math.Max(mostRuns, runs);
            // A fold leaves the batch's own run alone waiting; removals alone never empty all eight.
            if (previousRuns == PostingRuns.MaxRuns && runs <= 1)
                folds++;
            previousRuns = runs;
        }
        Assert.Equal(PostingRuns.MaxRuns, mostRuns);
        Assert.True(folds >= 3, $"{folds} folds");
        AssertModel(model, Stored(environment).Terms);
    }

    [Fact]
    public void Apply_SmallTermsTree_WritesNoRuns()
    {
        using var environment = StorageEnvironment.Open(Storage());
        var model = new Dictionary<string, SortedSet<long>>();
        var nextId = Fill(environment, model, 0, 50);
        var changes = new SortedDictionary<string, Change>(StringComparer.Ordinal);
        var change = new Change();
        change.Additions.Add(nextId);
        changes.Add("filler-000007", change);
        Apply(environment, nextId, changes);
        model["filler-000007"].Add(nextId);
        var (stored, runs) = Stored(environment);
        Assert.Equal(0, runs);
        AssertModel(model, stored);
    }

    [Fact]
    public void Apply_ExactFieldsLargeTermsTree_WritesNoRuns()
    {
        using var environment = StorageEnvironment.Open(Storage());
        var model = new Dictionary<string, SortedSet<long>>();
        var nextId = Fill(environment, model, 0, 20_000);
        using (var tx = environment.BeginWrite())
        {
            var runs = new PostingRuns(tx, RunsTree, new PostingStore(tx.CreateTree(TermsTree), () => tx.CreateTree(SealedTree), withFrequencies: false), nextId, fullText: false);
            Assert.True(runs.Apply(Term("filler-000005"), [nextId], [1], []));
            runs.Finish();
            tx.Commit();
        }
        using var read = environment.BeginRead();
        Assert.Null(read.OpenTree(RunsTree));
        Assert.Equal(2, PostingStore.DocumentFrequency(read.OpenTree(TermsTree)!.TryGet(TermEncoding.TermKey(Term("filler-000005")), out var header) ? header : []));
    }

    [Fact]
    public void Apply_RemovalsThatEmptyATermsMainPostings_FoldItsRunsIntoTheTermsTree()
    {
        using var environment = StorageEnvironment.Open(Storage());
        var model = new Dictionary<string, SortedSet<long>>();
        var nextId = Fill(environment, model, 0, 20_000);
        // filler-000001 has id 1 in the terms tree; two batches give it a run entry each.
        for (var batch = 0; batch < 2; batch++, nextId++)
        {
            var changes = new SortedDictionary<string, Change>(StringComparer.Ordinal) { ["filler-000001"] = new Change() };
            changes["filler-000001"].Additions.Add(nextId);
            Apply(environment, nextId, changes);
            model["filler-000001"].Add(nextId);
        }
        using (var tx = environment.BeginRead())
            Assert.Equal(2, PostingRuns.Starts(tx.OpenTree(RunsTree)).Count);

        var removal = new SortedDictionary<string, Change>(StringComparer.Ordinal) { ["filler-000001"] = new Change() };
        removal["filler-000001"].Removals.Add(1);
        Apply(environment, nextId, removal);
        model["filler-000001"].Remove(1);
        var (stored, runs) = Stored(environment);
        AssertModel(model, stored);
        // Its run entries went into the terms tree with it, and the runs' tree, left empty, is gone.
        Assert.Equal(0, runs);

        // Removing every id takes the term out of the terms tree.
        var all = new SortedDictionary<string, Change>(StringComparer.Ordinal) { ["filler-000001"] = new Change() };
        all["filler-000001"].Removals.AddRange(model["filler-000001"]);
        Apply(environment, nextId, all);
        model["filler-000001"].Clear();
        (stored, _) = Stored(environment);
        AssertModel(model, stored);
    }

    [Fact]
    public void Apply_TermsTreeShrunkBelowTheSizeWithRunsWaiting_FoldsThem()
    {
        using var environment = StorageEnvironment.Open(Storage());
        var model = new Dictionary<string, SortedSet<long>>();
        var nextId = Fill(environment, model, 0, 20_000);
        var changes = new SortedDictionary<string, Change>(StringComparer.Ordinal) { ["filler-000009"] = new Change() };
        changes["filler-000009"].Additions.Add(nextId);
        Apply(environment, nextId, changes);
        model["filler-000009"].Add(nextId++);
        Assert.Equal(1, Stored(environment).Runs);

        // Nearly every filler goes: the terms tree falls below the size, and the next batch folds the run in.
        var removals = new SortedDictionary<string, Change>(StringComparer.Ordinal);
        for (var i = 100; i < 20_000; i++)
        {
            removals[$"filler-{i:D6}"] = new Change();
            removals[$"filler-{i:D6}"].Removals.Add(i);
            model[$"filler-{i:D6}"].Clear();
        }
        Apply(environment, nextId, removals);
        using (var tx = environment.BeginRead())
            Assert.True(tx.OpenTree(TermsTree)!.LeafPages < PostingRuns.MinLeafPages);
        Assert.Equal(1, Stored(environment).Runs);

        var last = new SortedDictionary<string, Change>(StringComparer.Ordinal) { ["filler-000009"] = new Change() };
        last["filler-000009"].Additions.Add(nextId);
        Apply(environment, nextId, last);
        model["filler-000009"].Add(nextId);
        var (stored, runs) = Stored(environment);
        Assert.Equal(0, runs);
        AssertModel(model, stored);
    }

    [Fact]
    public void Apply_RunStartingAtOrAfterTheBatch_IsRefusedAsCorrupt()
    {
        using var environment = StorageEnvironment.Open(Storage());
        var model = new Dictionary<string, SortedSet<long>>();
        var nextId = Fill(environment, model, 0, 20_000);
        var changes = new SortedDictionary<string, Change>(StringComparer.Ordinal) { ["filler-000003"] = new Change() };
        changes["filler-000003"].Additions.Add(nextId + 10);
        Apply(environment, nextId + 10, changes);

        using var tx = environment.BeginWrite();
        Assert.Throws<CorruptionException>(() =>
            new PostingRuns(tx, RunsTree, new PostingStore(tx.CreateTree(TermsTree), () => tx.CreateTree(SealedTree), withFrequencies: true), nextId, fullText: true));
    }
}
