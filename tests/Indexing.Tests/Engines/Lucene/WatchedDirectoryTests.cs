using Folio.Indexing.Engines;
using Folio.Indexing.Engines.Lucene;
using Lucene.Net.Analysis.Core;
using Lucene.Net.Documents;
using Lucene.Net.Index;
using Lucene.Net.Store;
using Lucene.Net.Util;
using Lucene.Net.Util.Automaton;

namespace Folio.Indexing.Tests.Engines.Lucene;

/// <summary>
/// The codec's own intersection of an automaton with a field's terms returns only matches, so a pattern matching nothing
/// walks every block of the dictionary in one step: only the watched dictionary reads can stop it. Both ways a segment
/// keeps its dictionary are covered, a <c>.tim</c> file of its own and a slice of a compound file.
/// </summary>
public sealed class WatchedDirectoryTests : IDisposable
{
    private const string WordField = "Word";
    private const int Terms = 20_000;

    private readonly string _path = Path.Combine(Path.GetTempPath(), "folio-watched-" + Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (System.IO.Directory.Exists(_path))
            System.IO.Directory.Delete(_path, recursive: true);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void Intersect_OfACancelledWalk_StopsWhenNothingMatches(bool compound)
    {
        using var directory = Write(compound);
        using var reader = DirectoryReader.Open(new WatchedDirectory(directory));
        var terms = Single(reader);
        var nothing = new CompiledAutomaton(new RegExp(".*zzz.*").ToAutomaton());

        using (TermsDictionaryWatch.Enter(new QueryGuard(new CancellationToken(canceled: true))))
            Assert.ThrowsAny<OperationCanceledException>(() => Count(terms.Intersect(nothing, null)));

        Assert.Equal(0, Count(terms.Intersect(nothing, null)));
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void Intersect_UnderAWatchThatDoesNotStop_FindsWhatTheUnwatchedDirectoryFinds(bool compound)
    {
        using var directory = Write(compound);
        using var watched = DirectoryReader.Open(new WatchedDirectory(directory));
        using var plain = DirectoryReader.Open(directory);
        var pattern = new CompiledAutomaton(new RegExp(".*1.*7").ToAutomaton());

        int expected = Count(Single(plain).Intersect(pattern, null));
        Assert.True(expected > 100);
        using (TermsDictionaryWatch.Enter(new QueryGuard(CancellationToken.None)))
            Assert.Equal(expected, Count(Single(watched).Intersect(pattern, null)));
    }

    [Fact]
    public void Scope_Dispose_RestoresTheGuardBefore()
    {
        var outer = new QueryGuard(CancellationToken.None);
        var inner = new QueryGuard(CancellationToken.None);
        using (TermsDictionaryWatch.Enter(outer))
        {
            using (TermsDictionaryWatch.Enter(inner))
                Assert.Same(inner, TermsDictionaryWatch.Current);
            Assert.Same(outer, TermsDictionaryWatch.Current);
        }

        Assert.Null(TermsDictionaryWatch.Current);
    }

    private NIOFSDirectory Write(bool compound)
    {
        var directory = new NIOFSDirectory(_path);
        var config = new IndexWriterConfig(LuceneVersion.LUCENE_48, new KeywordAnalyzer()) { UseCompoundFile = compound };
        config.MergePolicy.NoCFSRatio = compound ? 1.0 : 0.0;
        using (var writer = new IndexWriter(directory, config))
        {
            for (var i = 0; i < Terms; i++)
                writer.AddDocument([new StringField(WordField, "word-" + i.ToString("D6", System.Globalization.CultureInfo.InvariantCulture), global::Lucene.Net.Documents.Field.Store.NO)]);
            writer.ForceMerge(1);
        }

        Assert.Equal(compound, directory.ListAll().Any(name => name.EndsWith(".cfs", StringComparison.Ordinal)));
        return directory;
    }

    private static global::Lucene.Net.Index.Terms Single(DirectoryReader reader) =>
        Assert.Single(reader.Leaves).AtomicReader.GetTerms(WordField);

    private static int Count(TermsEnum terms)
    {
        var count = 0;
        while (terms.MoveNext())
            count++;
        return count;
    }
}
