using System.Text;
using Folio.Storage.Documents.Compression;
using static Folio.Storage.Tests.Documents.DocumentCompressionTests;

namespace Folio.Storage.Tests.Documents;

public class DictionaryTrainerTests
{
    [Fact]
    public void Train_OneFastCoverPass_CompressesUnseenBodiesAsWellAsZstdsSearchedDefault()
    {
        var samples = new List<byte[]>();
        for (var n = 0; n < 2000; n++)
            samples.Add(Encoding.UTF8.GetBytes(Order(n)));

        var single = DictionaryTrainer.Train(samples, 64 * 1024, level: 1);
        var searched = ZstdSharp.DictBuilder.TrainFromBuffer(samples, 64 * 1024);

        var withSingle = StoredBytes(single);
        var withSearched = StoredBytes(searched);
        var without = StoredBytes([]);
        Assert.True(withSingle < without / 2, $"{withSingle} bytes with the dictionary, {without} without one");
        // The single pass gives up a search; on these bodies it must not give up more than a few percent of the ratio for it.
        Assert.True(withSingle <= withSearched * 1.05, $"{withSingle} bytes with one pass, {withSearched} with Zstd's searched default");
    }

    /// <summary>The bytes 500 bodies the samples never held come to with <paramref name="dictionary"/> at level 1.</summary>
    private static long StoredBytes(byte[] dictionary)
    {
        using var codec = new CompressionDictionary(1, "orders", dictionary, 1);
        var destination = new byte[4096];
        long stored = 0;
        for (var n = 100_000; n < 100_500; n++)
        {
            var body = Encoding.UTF8.GetBytes(Order(n));
            stored += codec.TryCompress(body, destination, body.Length, out var written, out _) ? written : body.Length;
        }
        return stored;
    }
}
