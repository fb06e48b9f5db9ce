using System.Globalization;
using Folio.Storage.Documents;
using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Crash;

/// <summary>
/// Kill -9 cycles of the CrashWriter's documents mode on one directory: compressed documents written in batches
/// while dictionaries are trained and retrained in the background (the shape switches every 200 documents). After
/// each kill the store reopens and the documents the killed process acknowledged, with a thousand older ones drawn at
/// random, read back with the JSON they were sent; every 20 cycles and at the end every acknowledged document does and
/// Verify() passes. (Reading everything after every kill made the 200 cycles quadratic: a 1 GB store and no end in
/// half an hour.) Slow tier: <c>dotnet test tests/Storage.Tests --settings tests/slow.runsettings --filter "FullyQualifiedName~DocumentKillTests"</c>.
/// </summary>
[Collection(HeavyTests.Name)]
public class DocumentKillTests
{
    [Fact]
    public Task Kill_DuringCompressedWritesAndTraining_KeepsEveryAcknowledgedDocument() => RunCyclesAsync(cycles: 8, seed: 3);

    [Fact]
    [Trait("Category", "Slow")]
    public Task Kill_DuringCompressedWritesAndTraining_KeepsEveryAcknowledgedDocument_200Cycles() => RunCyclesAsync(cycles: 200, seed: 4);

    private static async Task RunCyclesAsync(int cycles, int seed)
    {
        using var directory = new TempDirectory("kill-documents");
        var random = new Random(seed);
        var acknowledged = new SortedDictionary<long, uint>();
        var highestVersion = 0;
        var numbers = new List<long>();
        for (var cycle = 0; cycle < cycles; cycle++)
        {
            var window = TimeSpan.FromMilliseconds(random.Next(500, 2500));
            var checkedNow = new SortedDictionary<long, uint>();
            using (var child = CrashWriterProcess.StartDocuments(directory.Path, seed * 100_000 + cycle))
            {
                await child.WaitForLineAsync("OPENED");
                await child.KillAfterAsync(window);
                foreach (var (number, checksum) in child.Acknowledged)
                {
                    Assert.True(acknowledged.TryAdd(number, checksum), $"cycle {cycle}: document {number} was acknowledged twice");
                    checkedNow.Add(number, checksum);
                    numbers.Add(number);
                }
            }
            var whole = cycle % 20 == 19 || cycle == cycles - 1;
            for (var i = 0; i < 1000 && !whole && numbers.Count > 0; i++)
            {
                var older = numbers[random.Next(numbers.Count)];
                checkedNow.TryAdd(older, acknowledged[older]);
            }
            var where = $"cycle {cycle} (killed {window.TotalMilliseconds} ms after opening)";
            highestVersion = Math.Max(highestVersion, Check(directory.Path, whole ? acknowledged : checkedNow, whole, where));
        }
        Assert.True(acknowledged.Count > cycles * 10, $"only {acknowledged.Count} documents were acknowledged in {cycles} cycles");
        Assert.True(highestVersion >= 2, $"the runs stored dictionary versions up to {highestVersion} over {acknowledged.Count} documents; a retraining should have happened");
    }

    /// <summary>Checks the given acknowledged documents (and the whole file when <paramref name="verify"/>); returns the highest dictionary version a body uses.</summary>
    private static int Check(string path, SortedDictionary<long, uint> acknowledged, bool verify, string where)
    {
        using var store = DocumentStore.Open(StorageOptions.ForPath(path) with { BackgroundFlush = false });
        if (verify)
            store.Environment.Verify();
        var highest = 0;
        using var reader = store.OpenReader();
        foreach (var (number, checksum) in acknowledged)
        {
            var id = "crash/" + number.ToString(CultureInfo.InvariantCulture);
            Assert.True(reader.TryGet(id, out var document), $"{where}: acknowledged document {id} is missing");
            var sent = SentJson.Checksum(document.Json);
            Assert.True(sent is not null, $"{where}: {id} has no metadata");
            Assert.True(sent == checksum, $"{where}: {id} does not read back as it was sent");
            highest = Math.Max(highest, document.DictionaryVersion);
        }
        return highest;
    }
}
