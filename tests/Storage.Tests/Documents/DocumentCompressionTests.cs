using System.Globalization;
using System.Text;
using Folio.Storage.Documents;
using Folio.Storage.Documents.Compression;
using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Documents;

public class DocumentCompressionTests
{
    /// <summary>Training after a few hundred bodies, so a test sees dictionaries without writing thousands.</summary>
    internal static readonly DocumentCompressionOptions QuickTraining = new() { TrainingSamples = 200, DictionaryBytes = 16 * 1024, RatioWindowDocuments = 100 };

    internal static PreparedDocument Json(string json) => PreparedDocument.Parse(Encoding.UTF8.GetBytes(json));

    /// <summary>The exact text the store keeps for <paramref name="client"/> (compact, without @metadata) written as <paramref name="result"/>.</summary>
    internal static string Expected(string client, WriteResult result)
    {
        var open = client == "{}" ? "{" : client[..^1] + ",";
        var lastModified = result.LastModified.ToString("O", CultureInfo.InvariantCulture);
        return $$$"""{{{open}}}"@metadata":{"@collection":"{{{result.Collection}}}","@id":"{{{result.Id}}}","@change-vector":"{{{result.ChangeVector}}}","@last-modified":"{{{lastModified}}}"}}""";
    }

    internal static string Order(int n, string shape = "a")
    {
        var random = new Random(n);
        return shape == "a"
            ? $$"""{"Company":"companies/{{random.Next(1, 500)}}","Employee":"employees/{{random.Next(1, 50)}}","Freight":{{random.Next(1, 30000) / 100.0}},"ShipTo":{"City":"{{(random.Next(3) == 0 ? "Lyon" : "Graz")}}","PostalCode":"{{random.Next(10000, 99999)}}","Country":"France"},"Lines":[{"Product":"products/{{random.Next(1, 77)}}","Quantity":{{random.Next(1, 50)}},"PricePerUnit":{{random.Next(100, 9000) / 100.0}}}],"Notes":"please deliver before noon to the back door"}"""
            : $$"""{"sensor_identifier":"probe-{{random.Next(1, 9999)}}","reading_kelvin":{{random.Next(20000, 40000) / 100.0}},"humidity_percent":{{random.Next(0, 100)}},"battery":{"volts":{{random.Next(300, 420) / 100.0}},"state":"{{(random.Next(2) == 0 ? "charging" : "draining")}}"},"firmware_revision":"v{{random.Next(1, 9)}}.{{random.Next(0, 20)}}","calibration_notes":"zero offset applied at factory; recheck quarterly"}""";
    }

    internal static void AssertReadsBack(DocumentStore store, string id, string expected)
    {
        using var reader = store.OpenReader();
        Assert.True(reader.TryGet(id, out var document), $"{id} is missing");
        Assert.Equal(expected, Encoding.UTF8.GetString(document.Json));
    }

    [Fact]
    public async Task Put_EveryIdShape_ReadsBackByteExact()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory(), QuickTraining);
        var written = new List<(string Id, string Expected)>();
        for (var n = 1; n <= 600; n++)
        {
            var id = (n % 4) switch
            {
                0 => "orders/" + n.ToString(CultureInfo.InvariantCulture),
                1 => $"orders/{n}-A",
                2 => "orders/" + new Guid(n, 7, 7, 1, 2, 3, 4, 5, 6, 7, 8).ToString(),
                _ => "orders/",
            };
            var client = Order(n);
            var result = await store.PutAsync(id, Json(client));
            written.Add((result.Id, Expected(client, result)));
        }
        await store.Compression.WhenTrainingsDoneAsync();
        Assert.True(store.Compression.CurrentVersion("orders") >= 1, "a dictionary should have been trained on 200 samples");
        for (var n = 601; n <= 700; n++)
        {
            var client = Order(n);
            var result = await store.PutAsync($"orders/{n}-B", Json(client));
            written.Add((result.Id, Expected(client, result)));
        }

        using var reader = store.OpenReader();
        var withDictionary = 0;
        foreach (var (id, expected) in written)
        {
            Assert.True(reader.TryGet(id, out var document), $"{id} is missing");
            Assert.Equal(expected, Encoding.UTF8.GetString(document.Json));
            if (document.IsCompressed && document.DictionaryVersion > 0)
                withDictionary++;
        }
        Assert.True(withDictionary >= 100, $"only {withDictionary} bodies use a dictionary");
    }

    [Fact]
    public async Task Put_WithCompressionOn_OnceTrained_StoresUnderHalfTheBytesOfOff()
    {
        async Task<long> StoredAsync(DocumentCompressionOptions options)
        {
            using var store = DocumentStore.Open(StorageOptions.InMemory(), options);
            for (var batch = 0; batch < 6; batch++)
            {
                var commands = new List<DocumentCommand>();
                for (var n = batch * 500; n < (batch + 1) * 500; n++)
                    commands.Add(new DocumentCommand(DocumentCommandType.Put, $"orders/{n}", Json(Order(n)), null));
                await store.BatchAsync(commands);
                await store.Compression.WhenTrainingsDoneAsync();
            }
            using var reader = store.OpenReader();
            long bytes = 0;
            for (var n = 2500; n < 3000; n++)
            {
                Assert.True(reader.TryGet($"orders/{n}", out var document));
                bytes += document.StoredBody.Length;
            }
            return bytes;
        }

        var off = await StoredAsync(DocumentCompressionOptions.Disabled);
        var on = await StoredAsync(new DocumentCompressionOptions());
        Assert.True(on < off * 0.5, $"compressed bodies take {on} bytes, plain ones {off}");
    }

    [Fact]
    public async Task Put_BodyThatDoesNotShrink_IsStoredAsItIs()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var random = new Random(5);
        var text = new StringBuilder();
        for (var i = 0; i < 3000; i++)
            text.Append((char)random.Next(0x4E00, 0x9FFF));
        var client = $$"""{"t":"{{text}}"}""";
        var result = await store.PutAsync("noise/1", Json(client));
        var tiny = await store.PutAsync("t/1", Json("{}"));

        using var reader = store.OpenReader();
        Assert.True(reader.TryGet("noise/1", out var noise));
        Assert.Equal(Encoding.UTF8.GetBytes(Expected(client, result)), noise.Json.ToArray());
        Assert.True(reader.TryGet("t/1", out var small));
        Assert.Equal(0, small.BodyFlags);
        Assert.Equal(Expected("{}", tiny), Encoding.UTF8.GetString(small.Json));
    }

    [Fact]
    public async Task Put_TenMegabyteDocument_ReadsBackByteExact_ThroughReaderCursorAndChanges()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory() with { JournalFileSize = 64L << 20 });
        var random = new Random(10);
        var items = new StringBuilder("{\"Items\":[");
        while (items.Length < 10_000_000)
            items.Append(CultureInfo.InvariantCulture, $"{{\"Sku\":\"sku-{random.Next(100000)}\",\"Count\":{random.Next(1000)}}},");
        items.Length--;
        items.Append("]}");
        var client = items.ToString();
        var result = await store.PutAsync("big/1", Json(client));
        var expected = Encoding.UTF8.GetBytes(Expected(client, result));

        using var reader = store.OpenReader();
        Assert.True(reader.TryGet("big/1", out var document));
        Assert.Equal(Document.CompressedPrefixMagiclessFlag, document.BodyFlags);
        Assert.True(document.StoredBody.Length < expected.Length / 2);
        Assert.True(expected.AsSpan().SequenceEqual(document.Json));
        var cursor = reader.ByCollection("big");
        Assert.True(cursor.MoveNext());
        Assert.True(expected.AsSpan().SequenceEqual(cursor.Current.Json));
        var changes = reader.ChangesAfter(0);
        Assert.True(changes.MoveNext());
        Assert.True(expected.AsSpan().SequenceEqual(changes.Document.Json));
        Assert.Equal(expected.Length, changes.Bytes);
    }

    [Fact]
    public async Task Cursors_OverCompressedBodies_HandOutEachDocumentByteExact()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory(), QuickTraining);
        var expected = new Dictionary<string, string>(StringComparer.Ordinal);
        var commands = new List<DocumentCommand>();
        for (var n = 0; n < 400; n++)
            commands.Add(new DocumentCommand(DocumentCommandType.Put, $"orders/{n}", Json(Order(n)), null));
        var results = await store.BatchAsync(commands);
        for (var n = 0; n < 400; n++)
            expected[results[n]!.Id] = Expected(Order(n), results[n]!);
        await store.Compression.WhenTrainingsDoneAsync();
        await store.PutAsync("orders/400", Json(Order(400)));

        using var reader = store.OpenReader();
        var seen = 0;
        var byCollection = reader.ByCollection("orders");
        while (byCollection.MoveNext())
        {
            var document = byCollection.Current;
            if (expected.TryGetValue(document.IdString, out var text))
            {
                Assert.Equal(text, Encoding.UTF8.GetString(byCollection.Current.Json));
                seen++;
            }
        }
        Assert.Equal(400, seen);
        var byPrefix = reader.ByIdPrefix("orders/1");
        var prefixed = 0;
        while (byPrefix.MoveNext())
        {
            if (expected.TryGetValue(byPrefix.Current.IdString, out var text))
            {
                Assert.Equal(text, Encoding.UTF8.GetString(byPrefix.Current.Json));
                prefixed++;
            }
        }
        Assert.Equal(111, prefixed);
        var changes = reader.ChangesAfter(0, ["orders"]);
        var changed = 0;
        while (changes.MoveNext())
        {
            if (expected.TryGetValue(changes.Document.IdString, out var text))
            {
                Assert.Equal(text, Encoding.UTF8.GetString(changes.Document.Json));
                changed++;
            }
        }
        Assert.Equal(400, changed);
    }

    [Fact]
    public async Task Open_WithCompressionOff_WritesPlainBodies_AndStillReadsCompressedOnes()
    {
        using var directory = new TempDirectory("compression-off");
        var options = StorageOptions.ForPath(directory.Path);
        string compressedExpected;
        using (var store = DocumentStore.Open(options))
        {
            var result = await store.PutAsync("orders/1", Json(Order(1)));
            compressedExpected = Expected(Order(1), result);
        }
        using (var store = DocumentStore.Open(options, DocumentCompressionOptions.Disabled))
        {
            var result = await store.PutAsync("orders/2", Json(Order(2)));
            AssertReadsBack(store, "orders/1", compressedExpected);
            AssertReadsBack(store, "orders/2", Expected(Order(2), result));
            using var reader = store.OpenReader();
            Assert.True(reader.TryGet("orders/1", out var compressed));
            Assert.Equal(Document.CompressedBareFlags, compressed.BodyFlags);
            Assert.True(reader.TryGet("orders/2", out var plain));
            Assert.Equal(0, plain.BodyFlags);
        }
    }

    [Fact]
    public async Task Open_UncompressedCollection_StoresItsBodiesAsTheyAre()
    {
        var options = new DocumentCompressionOptions { UncompressedCollections = new HashSet<string>(StringComparer.OrdinalIgnoreCase) { "Logs" } };
        using var store = DocumentStore.Open(StorageOptions.InMemory(), options);
        await store.PutAsync("logs/1", Json(Order(1)));
        await store.PutAsync("orders/1", Json(Order(1)));
        using var reader = store.OpenReader();
        Assert.True(reader.TryGet("logs/1", out var log));
        Assert.Equal(0, log.BodyFlags);
        Assert.True(reader.TryGet("orders/1", out var order));
        Assert.Equal(Document.CompressedBareFlags, order.BodyFlags);
    }

    [Fact]
    public void TrainingFailed_ThreeTimesInARow_StopsSamplingUntilTheRatioWorsens()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory(), QuickTraining);
        var state = store.Compression.ForWriting("blobs", "Blobs")!;
        var body = Encoding.UTF8.GetBytes("""{"Blob":"x"}""");
        for (var failure = 1; failure <= 3; failure++)
        {
            Assert.True(state.Sampling, $"not sampling before training {failure}");
            List<byte[]>? ready = null;
            while (ready is null)
                ready = state.Sample(body);
            Assert.True(state.Training);
            state.TrainingFailed();
        }

        Assert.False(state.Sampling, "bodies no dictionary helps are still copied as samples");
        Assert.False(state.Training);
        for (var window = 0; window < 3; window++)
        {
            for (var i = 0; i < QuickTraining.RatioWindowDocuments; i++)
                state.Observe(100, 50);
        }
        Assert.False(state.Sampling, "a ratio that did not worsen started sampling again");
        for (var i = 0; i < QuickTraining.RatioWindowDocuments; i++)
            state.Observe(100, 95);
        Assert.True(state.Sampling, "a worse ratio should start sampling again");
    }
}
