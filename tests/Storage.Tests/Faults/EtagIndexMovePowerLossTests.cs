using System.Text;
using Folio.Storage.Documents;
using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Faults;

/// <summary>
/// Loses power at every device operation of the open that moves a documents format 3 store (two etag indexes), a
/// format 4 store (an entry a document) or a format 5 store to format 5's blocks and format 6's record layout (the
/// records in batches, a transaction each), of a write after it and of the flush of both to the data file, and opens
/// what the disk kept: the store must list exactly the documents it held, with the same JSON, in etag order, in format
/// 6, with the write after the move if it was acknowledged, and verify.
/// </summary>
[Collection(HeavyTests.Name)]
public class EtagIndexMovePowerLossTests
{
    private static readonly CrashStrategy[] Strategies = Enum.GetValues<CrashStrategy>();

    [Theory]
    [InlineData(3)]
    [InlineData(4)]
    [InlineData(5)]
    public void Open_PowerLostWhileMovingTheEtagIndex_LeavesTheStoreWholeInOneFormat(int format) => CrashAtEveryPoint(format, stride: 1, rounds: 2);

    [Theory]
    [InlineData(3)]
    [InlineData(4)]
    [InlineData(5)]
    [Trait("Category", "Slow")]
    public void Open_PowerLostAtEveryStepOfTheMoveWithEveryStrategy_LeavesTheStoreWholeInOneFormat(int format) => CrashAtEveryPoint(format, stride: 1, rounds: Strategies.Length);

    private static void CrashAtEveryPoint(int format, int stride, int rounds)
    {
        var probe = Workload.Run(new SimulatedPowerLossFileSystem(), format);
        Assert.True(probe.Total - probe.BeforeMove > 6, $"the move made only {probe.Total - probe.BeforeMove} device operations");
        int runs = 0, ended = 0;
        for (var point = probe.BeforeMove + 1; point <= probe.Total; point += stride)
        {
            for (var round = 0; round < rounds; round++)
            {
                runs++;
                if (!CrashAndRecover(format, point, Strategies[(int)((point + round) % Strategies.Length)], round))
                    ended++;
            }
        }
        // The journal sets its compression effort from how long compressing and writing took, so the device operations
        // can differ from the probe's by a few near the end.
        Assert.True(ended * 20 <= runs, $"{ended} of {runs} runs ended before the operation they were to lose power after");
    }

    /// <summary>Loses power after operation <paramref name="point"/> and checks what the disk kept; false when the workload ended before it.</summary>
    private static bool CrashAndRecover(int format, long point, CrashStrategy strategy, int round)
    {
        var fileSystem = new SimulatedPowerLossFileSystem();
        fileSystem.CrashAfter(point, strategy, seed: (int)(point * 7919 + round));
        var run = Workload.Run(fileSystem, format);
        if (!fileSystem.HasCrashed)
            return false;
        // This run's own listing: the JSON holds its database id and dates.
        var before = run.Listing;
        Assert.NotEmpty(before);
        var where = $"power lost after {fileSystem.CrashOperation} ({strategy}, round {round}){(run.AfterAcknowledged ? ", the write after the move acknowledged" : "")}";
        using var store = DocumentStore.Open(Workload.OptionsFor(fileSystem.CrashImage));
        using var reader = store.OpenReader();
        var listed = Workload.List(reader.ByEtag());
        var hasAfter = listed.Count == before.Count + 1 && listed[^1].Id == "after/1";
        var held = hasAfter ? listed.Take(before.Count).ToList() : listed;
        var differs = before.Zip(held).FirstOrDefault(pair => pair.First != pair.Second);
        Assert.True(before.SequenceEqual(held), $"{where}: listed {listed.Count} documents, not the {before.Count} the store held (first difference: {differs.Second} where it held {differs.First})");
        Assert.True(hasAfter || !run.AfterAcknowledged, $"{where}: the acknowledged write after the move is lost");
        Assert.Equal(Workload.List(reader.ByCollection("c3")), listed.Where(d => d.Id.StartsWith("c3/", StringComparison.Ordinal)).ToList());
        using (var tx = store.Environment.BeginRead())
        {
            Assert.Null(tx.OpenTree(format == 3 ? Format3EtagIndexes.EtagsTree : Format4EtagIndex.Tree));
            Assert.False(tx.OpenTree(DocumentStore.MetaTree)!.TryGet("records-moved-through"u8, out _), $"{where}: the records' move did not finish");
        }
        store.Environment.Verify();
        return true;
    }

    /// <summary>A format 3 or 4 store of 400 documents in five collections, closed; then the open that moves it, one write and a flush.</summary>
    private sealed class Workload
    {
        public List<(string Id, long Etag, string Json)> Listing { get; private set; } = [];

        public long BeforeMove { get; private set; }

        public long Total { get; private set; }

        public bool AfterAcknowledged { get; private set; }

        public static StorageOptions OptionsFor(Platform.IStorageFileSystem fileSystem) =>
            new() { FileSystem = fileSystem, BackgroundFlush = false, JournalFileSize = 256 << 10 };

        public static Workload Run(SimulatedPowerLossFileSystem fileSystem, int format)
        {
            var workload = new Workload();
            using (var store = DocumentStore.Open(OptionsFor(fileSystem)))
            {
                var commands = new List<DocumentCommand>();
                for (var i = 0; i < 400; i++)
                {
                    var collection = $"c{i % 5}";
                    commands.Add(new DocumentCommand(DocumentCommandType.Put, $"{collection}/{i}", Doc(collection, i), null));
                }
                for (var i = 0; i < 400; i += 7)
                    commands.Add(new DocumentCommand(DocumentCommandType.Delete, $"c{i % 5}/{i}", null, null));
                store.BatchAsync(commands).GetAwaiter().GetResult();
                using (var reader = store.OpenReader())
                    workload.Listing = List(reader.ByEtag());
                if (format == 3)
                    Format3EtagIndexes.Write(store);
                else if (format == 4)
                    Format4EtagIndex.Write(store);
                else
                    Format5Records.Write(store);
                // The records move in batches of a sixteenth of a journal file: the move must take several.
                Assert.True(RecordLayout.StoredBytes(store) > 3 * (OptionsFor(fileSystem).JournalFileSize / 16), $"the records take {RecordLayout.StoredBytes(store)} bytes, a batch or two");
                store.Environment.FlushToDataFile();
            }
            workload.BeforeMove = fileSystem.Operations;
            var environment = StorageEnvironment.Open(OptionsFor(fileSystem));
            try
            {
                using var moved = DocumentStore.On(environment);
                moved.PutAsync("after/1", Doc("after", 0)).GetAwaiter().GetResult();
                workload.AfterAcknowledged = !fileSystem.HasCrashed;
                environment.FlushToDataFile();
                workload.Total = fileSystem.Operations;
            }
            finally
            {
                environment.SimulateCrash();
            }
            return workload;
        }

        public static List<(string Id, long Etag, string Json)> List(DocumentCursor cursor)
        {
            var listed = new List<(string, long, string)>();
            while (cursor.MoveNext())
                listed.Add((cursor.Current.IdString, cursor.Current.Etag, Encoding.UTF8.GetString(cursor.Current.Json)));
            return listed;
        }

        private static PreparedDocument Doc(string collection, int value) =>
            PreparedDocument.Parse(Encoding.UTF8.GetBytes($"{{\"v\":{value},\"@metadata\":{{\"@collection\":\"{collection}\"}}}}"));
    }
}
