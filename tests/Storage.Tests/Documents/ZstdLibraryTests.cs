using System.Text;
using Folio.Storage.Platform.Zstd;
using Folio.Storage.Tests.Support;
using static Folio.Storage.Tests.Documents.DocumentCompressionTests;

namespace Folio.Storage.Tests.Documents;

public class ZstdLibraryTests
{
    /// <summary>Each implementation this machine has: the managed one always, the system's libzstd when it loads.</summary>
    public static TheoryData<string> Implementations()
    {
        var data = new TheoryData<string> { "managed" };
        if (ZstdLibrary.Native is not null)
            data.Add("native");
        return data;
    }

    [NativeZstdFact(requireFileOnly: true)]
    public void Native_Loads_WhereTheSystemHasLibzstd()
    {
        Assert.NotNull(ZstdLibrary.Native);
        Assert.StartsWith("libzstd 1.", ZstdLibrary.Native.Description);
        Assert.Same(ZstdLibrary.Native, ZstdLibrary.Default);
    }

    [Theory]
    [MemberData(nameof(Implementations))]
    public void TryCompress_RoundTrips_WithAndWithoutADictionary(string implementation)
    {
        var library = Pick(implementation);
        var dictionary = library.TrainFastCover(Samples(2000), 64 * 1024, 1, 1000, 8);
        foreach (var withDictionary in new[] { false, true })
        {
            var used = withDictionary ? dictionary : [];
            AssertRoundTrips(library, library, used, firstOrder: 50_000, count: 200);
        }
    }

    [Theory]
    [MemberData(nameof(Implementations))]
    public void TryCompress_IsFalse_WhenTheFrameDoesNotFit(string implementation)
    {
        using var compressor = Pick(implementation).CreateCompressor(1, []);
        var random = new byte[1000];
        new Random(7).NextBytes(random);
        Assert.False(compressor.TryCompress(random, new byte[100], out _));
        Assert.True(compressor.TryCompress(random, new byte[2000], out var written));
        Assert.InRange(written, 1000, 1100);
    }

    [Theory]
    [MemberData(nameof(Implementations))]
    public void Decompress_Throws_OnDamagedFramesAndTheWrongDictionary(string implementation)
    {
        var library = Pick(implementation);
        var dictionary = library.TrainFastCover(Samples(2000), 64 * 1024, 1, 1000, 8);
        var body = Encoding.UTF8.GetBytes(Order(77_777));
        using var compressor = library.CreateCompressor(1, dictionary);
        var compressed = new byte[body.Length];
        Assert.True(compressor.TryCompress(body, compressed, out var written));

        using var withoutDictionary = library.CreateDecompressor([]);
        var back = new byte[body.Length];
        Assert.Throws<ZstdFailureException>(() => withoutDictionary.Decompress(compressed.AsSpan(0, written), back, magicless: true));
        using var decompressor = library.CreateDecompressor(dictionary);
        Assert.Throws<ZstdFailureException>(() => decompressor.Decompress(compressed.AsSpan(0, written / 2), back, magicless: true));
        Assert.Throws<ZstdFailureException>(() => decompressor.Decompress(compressed.AsSpan(0, written), new byte[body.Length / 2], magicless: true));
        // The context is still usable after a failure.
        Assert.Equal(body.Length, decompressor.Decompress(compressed.AsSpan(0, written), back, magicless: true));
        Assert.Equal(body, back);
    }

    [Theory]
    [MemberData(nameof(Implementations))]
    public void Decompress_ReadsFramesWithAndWithoutTheMagicNumber_InAnyOrder(string implementation)
    {
        var library = Pick(implementation);
        var dictionary = library.TrainFastCover(Samples(2000), 64 * 1024, 1, 1000, 8);
        var body = Encoding.UTF8.GetBytes(Order(88_888));
        using var compressor = library.CreateCompressor(1, dictionary);
        var magicless = new byte[body.Length];
        Assert.True(compressor.TryCompress(body, magicless, out var magiclessLength));
        var withMagic = EarlierFrames.Compress(body, dictionary);
        Assert.True(withMagic.AsSpan().StartsWith(EarlierFrames.Magic));
        Assert.Equal(withMagic.Length - 4, magiclessLength);
        Assert.Equal(withMagic.AsSpan(4).ToArray(), magicless.AsSpan(0, magiclessLength).ToArray());

        using var decompressor = library.CreateDecompressor(dictionary);
        var back = new byte[body.Length];
        foreach (var magic in new[] { false, true, true, false, true })
        {
            Array.Clear(back);
            var written = magic
                ? decompressor.Decompress(withMagic, back, magicless: false)
                : decompressor.Decompress(magicless.AsSpan(0, magiclessLength), back, magicless: true);
            Assert.Equal(body.Length, written);
            Assert.Equal(body, back);
        }
        Assert.Throws<ZstdFailureException>(() => decompressor.Decompress(magicless.AsSpan(0, magiclessLength), back, magicless: false));
    }

    [Fact]
    public void TryCompress_FitsUnderALimitAFewBytesAboveTheFrame()
    {
        var samples = Samples(2000);
        var dictionary = ZstdLibrary.Default.TrainFastCover(samples, 64 * 1024, 1, 1000, 8);
        using var compression = new Folio.Storage.Documents.Compression.CompressionDictionary(1, "orders", dictionary, 1);
        var destination = new byte[4096];
        for (var n = 70_000; n < 70_050; n++)
        {
            var body = Encoding.UTF8.GetBytes(Order(n));
            Assert.True(compression.TryCompress(body, destination, body.Length, out var frame, out _));
            // What a compaction recompressing with the same dictionary asks for: a frame smaller than the old one with its magic number.
            Assert.True(compression.TryCompress(body, destination, frame + 4, out var again, out _), $"order {n}: a {frame}-byte frame did not fit under {frame + 4}");
            Assert.Equal(frame, again);
            Assert.False(compression.TryCompress(body, destination, frame, out _, out _));
        }
    }

    [Theory]
    [MemberData(nameof(Implementations))]
    public void TrainFastCover_Throws_OnTooFewSamples(string implementation) =>
        Assert.Throws<ZstdFailureException>(() => Pick(implementation).TrainFastCover([[1, 2, 3]], 64 * 1024, 1, 1000, 8));

    [NativeZstdFact]
    public void Frames_AreReadByTheOtherImplementation_BothWays()
    {
        var native = ZstdLibrary.Native!;
        var managed = ZstdLibrary.Managed;
        var samples = Samples(2000);
        var nativeDictionary = native.TrainFastCover(samples, 64 * 1024, 1, 1000, 8);
        var managedDictionary = managed.TrainFastCover(samples, 64 * 1024, 1, 1000, 8);

        foreach (var (writer, reader, dictionary) in new[] { (native, managed, nativeDictionary), (managed, native, managedDictionary) })
        {
            AssertRoundTrips(writer, reader, dictionary, firstOrder: 60_000, count: 100);
        }
    }

    /// <summary>Orders <paramref name="firstOrder"/> onwards, compressed by one implementation, read back whole by the other.</summary>
    private static void AssertRoundTrips(ZstdLibrary writer, ZstdLibrary reader, byte[] dictionary, int firstOrder, int count)
    {
        using var compressor = writer.CreateCompressor(1, dictionary);
        using var decompressor = reader.CreateDecompressor(dictionary);
        for (var n = firstOrder; n < firstOrder + count; n++)
        {
            var body = Encoding.UTF8.GetBytes(Order(n));
            var compressed = new byte[body.Length * 2];
            Assert.True(compressor.TryCompress(body, compressed, out var written));
            var back = new byte[body.Length];
            Assert.Equal(body.Length, decompressor.Decompress(compressed.AsSpan(0, written), back, magicless: true));
            Assert.Equal(body, back);
        }
    }

    private static ZstdLibrary Pick(string implementation) =>
        implementation == "native" ? ZstdLibrary.Native! : ZstdLibrary.Managed;

    private static List<byte[]> Samples(int count)
    {
        var samples = new List<byte[]>(count);
        for (var n = 0; n < count; n++)
            samples.Add(Encoding.UTF8.GetBytes(Order(n)));
        return samples;
    }
}
