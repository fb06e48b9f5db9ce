using System.Text;
using Folio.Storage.Documents;
using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Documents;

/// <summary>
/// <see cref="DocumentCursor.Skip"/> on each kind of cursor against a cursor stepped with <see cref="DocumentCursor.MoveNext"/>:
/// the same count and the same next document.
/// </summary>
public sealed class DocumentCursorSkipTests : IDisposable
{
    private const int Orders = 6_000;
    private const int Products = 1_500;
    private const int Users = 1_500;
    private const int All = Orders + Products + Users;
    private readonly TempDirectory _directory = new("doc-skip");
    private readonly DocumentStore _store;

    public DocumentCursorSkipTests()
    {
        _store = DocumentStore.Open(StorageOptions.ForPath(_directory.Path));
        // Interleaved, so each collection's etags are spread over the whole etag range.
        var commands = new List<DocumentCommand>();
        for (var i = 0; i < Orders; i++)
        {
            commands.Add(Put($"orders/{i}", "Orders", i));
            if (i % 4 == 0)
            {
                commands.Add(Put($"products/{i / 4}", "Products", i));
                commands.Add(Put($"users/{i / 4}", "Users", i));
            }
            if (commands.Count >= 1_000)
            {
                _store.BatchAsync(commands).GetAwaiter().GetResult();
                commands.Clear();
            }
        }
        _store.BatchAsync(commands).GetAwaiter().GetResult();
    }

    public void Dispose()
    {
        _store.Dispose();
        _directory.Dispose();
    }

    [Fact]
    public void Skip_ByCollection_MatchesSteppingUpToAndPastTheEnd()
    {
        using var reader = _store.OpenReader();
        Assert.Equal(Orders, reader.CountInCollection("Orders"));
        foreach (var count in new[] { 0, 1, 2, 99, 1_000, Orders - 1, Orders, Orders + 1, int.MaxValue })
            AssertSkipMatchesStepping(() => reader.ByCollection("Orders"), count, expected: Math.Min(count, Orders));
        foreach (var count in new[] { 0, 1, 500, Products - 1, Products, Products + 7 })
            AssertSkipMatchesStepping(() => reader.ByCollection("Products"), count, expected: Math.Min(count, Products));
    }

    [Fact]
    public void Skip_ByCollectionAfterAnEtag_CountsOnlyTheLaterDocuments()
    {
        using var reader = _store.OpenReader();
        var half = All / 2;
        var later = 0;
        for (var cursor = reader.ByCollection("Orders", half); cursor.MoveNext();)
            later++;
        Assert.InRange(later, 1, Orders - 1);
        foreach (var count in new[] { 0, 1, later / 2, later - 1, later, later + 1 })
            AssertSkipMatchesStepping(() => reader.ByCollection("Orders", half), count, expected: Math.Min(count, later));
    }

    [Fact]
    public void Skip_ByIdPrefix_StopsAtThePrefixWhoseNeighboursSortBeforeAndAfter()
    {
        using var reader = _store.OpenReader();
        // "orders/" sorts before "products/" and "users/" after it.
        foreach (var count in new[] { 0, 1, 2, 640, Products - 1, Products, Products + 1, 100_000 })
            AssertSkipMatchesStepping(() => reader.ByIdPrefix("Products/"), count, expected: Math.Min(count, Products));
        foreach (var count in new[] { 0, 1, Users, Users + 1 })
            AssertSkipMatchesStepping(() => reader.ByIdPrefix("users/"), count, expected: Math.Min(count, Users));
        foreach (var count in new[] { 0, 1, All - 1, All, All + 1 })
            AssertSkipMatchesStepping(() => reader.ByIdPrefix(""), count, expected: Math.Min(count, All));
    }

    [Fact]
    public void Skip_ByEtag_MatchesSteppingFromAnyStartingEtag()
    {
        using var reader = _store.OpenReader();
        foreach (var count in new[] { 0, 1, 3_333, All - 1, All, All + 1 })
            AssertSkipMatchesStepping(() => reader.ByEtag(), count, expected: Math.Min(count, All));
        foreach (var count in new[] { 0, 1, 100, 3_000, 10_000 })
            AssertSkipMatchesStepping(() => reader.ByEtag(6_000), count, expected: Math.Min(count, All - 6_000));
    }

    [Fact]
    public void Skip_OverEntriesWhoseDocumentsAreMissing_CountsThemWithoutReadingThem()
    {
        // The collection index keeps an entry whose document record is gone (in the middle) and one that never had a
        // document (at the end): reading either one throws, so a skip that read documents would fail on them.
        string middle;
        using (var before = _store.OpenReader())
        {
            var cursor = before.ByCollection("Orders");
            Assert.Equal(Orders / 2, cursor.Skip(Orders / 2));
            middle = cursor.Current.IdString;
        }
        using (var write = _store.Environment.BeginWrite())
        {
            Assert.True(write.OpenTree(DocumentStore.DocsTree)!.Delete(Encoding.UTF8.GetBytes(middle.ToLowerInvariant())));
            Assert.True(CollectionNumbers.TryGet(write.OpenTree(CollectionNumbers.Tree)!, "orders"u8, out var number));
            new CollectionEtagIndex().Use(write.OpenTree(DocumentStore.CollectionDocsTree)!).Add(number, 10_000_000, "orders/never"u8);
            write.Commit();
        }
        using var reader = _store.OpenReader();
        var skipping = reader.ByCollection("Orders");
        Assert.Equal(Orders, skipping.Skip(Orders));
        Assert.Equal($"orders/{Orders - 1}", skipping.Current.IdString);
        Assert.Equal(1, skipping.Skip(1));
        Assert.Throws<CorruptionException>(() => skipping.Current.IdString);
        Assert.Equal(0, skipping.Skip(5));
        Assert.False(skipping.MoveNext());

        var stepping = reader.ByCollection("Orders");
        Assert.Equal(Orders / 2 - 1, stepping.Skip(Orders / 2 - 1));
        Assert.True(stepping.MoveNext());
        Assert.Throws<CorruptionException>(() => stepping.Current.IdString);
    }

    [Fact]
    public void Skip_NegativeCount_ThrowsAndLeavesTheCursorUnmoved()
    {
        using var reader = _store.OpenReader();
        var cursor = reader.ByCollection("Orders");
        Assert.Throws<ArgumentOutOfRangeException>(() => cursor.Skip(-1));
        Assert.True(cursor.MoveNext());
        Assert.Equal("orders/0", cursor.Current.IdString);
    }

    private static DocumentCommand Put(string id, string collection, int number) =>
        new(DocumentCommandType.Put, id, PreparedDocument.Parse(Encoding.UTF8.GetBytes($"{{\"Number\":{number},\"@metadata\":{{\"@collection\":\"{collection}\"}}}}")), null);

    private static void AssertSkipMatchesStepping(Func<DocumentCursor> open, int count, int expected)
    {
        var skipping = open();
        var stepping = open();
        var skipped = skipping.Skip(count);
        var stepped = 0;
        while (stepped < count && stepping.MoveNext())
            stepped++;
        Assert.Equal(stepped, skipped);
        Assert.Equal(expected, skipped);
        if (skipped > 0 && skipped == count)
            Assert.Equal(stepping.Current.IdString, skipping.Current.IdString);
        var more = stepping.MoveNext();
        Assert.Equal(more, skipping.MoveNext());
        if (more)
            Assert.Equal(stepping.Current.IdString, skipping.Current.IdString);
    }
}
