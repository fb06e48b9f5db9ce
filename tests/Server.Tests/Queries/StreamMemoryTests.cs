using System.Globalization;
using Folio.Server.Tests.BulkInsert;
using Folio.Server.Tests.Support;
using Xunit.Abstractions;

namespace Folio.Server.Tests.Queries;

/// <summary>
/// A streamed query sends its results as it reads them: the server in this process is sampled while a
/// result several times the bound goes out. Regression: the stream flushed only when the JSON writer held
/// 32 KB unhanded, which never happens (it hands full buffers to the pipe itself), so the whole answer
/// waited in memory until the end.
/// </summary>
[Collection(ProcessMemoryCollection.Name)]
public sealed class StreamMemoryTests(ITestOutputHelper output)
{
    [Fact]
    public async Task StreamQuery_KeepsMemoryBounded_WhenTheResultIsLarge()
    {
        const int documents = 60_000;
        const int payloadBytes = 900;
        await using RunningServer server = await RunningServer.StartAsync();
        string db = await FolioApi.CreateDatabaseAsync(server.Client);
        using HttpClient streaming = BulkInsertApi.StreamingClient(server);
        await BulkInsertApi.InsertAsync(streaming, db, new CommandStreamContent(documents, i => TestCommands.Put("users/", (int)i, payloadBytes)));

        GC.Collect();
        long baselineManaged = GC.GetTotalMemory(forceFullCollection: true);
        long baselineAnonymous = MemorySampler.AnonymousResidentBytes();
        // Live data, not garbage: the regression kept the whole answer reachable until the end.
        using var sampler = new MemorySampler(liveOnly: true);
        using var response = await streaming.GetAsync($"/databases/{db}/streams/queries?query={Uri.EscapeDataString("from Users")}", HttpCompletionOption.ResponseHeadersRead);
        await using var body = await response.Content.ReadAsStreamAsync();
        var (bytes, results, tail) = await CountAsync(body);
        MemorySampler.Peaks peaks = await sampler.StopAsync();

        output.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"streamed {bytes / 1048576} MB; managed peak {peaks.Managed / 1048576} MB (baseline {baselineManaged / 1048576}), anonymous peak {peaks.Anonymous / 1048576} MB (baseline {baselineAnonymous / 1048576})"));
        Assert.Equal(documents, results);
        Assert.Equal("]}", tail);
        const long bound = 32L << 20;
        Assert.True(peaks.Managed - baselineManaged < bound,
            $"The managed heap grew by {(peaks.Managed - baselineManaged) / 1048576} MB while streaming {bytes / 1048576} MB: the server buffered the answer.");
        if (peaks.Anonymous > 0)
            Assert.True(peaks.Anonymous - baselineAnonymous < bound,
                $"Anonymous resident memory grew by {(peaks.Anonymous - baselineAnonymous) / 1048576} MB while streaming {bytes / 1048576} MB: the server buffered the answer.");
    }

    /// <summary>Reads the answer without keeping it: its length, how many documents it holds (by a marker each has once) and its last two bytes.</summary>
    private static async Task<(long Bytes, int Results, string Tail)> CountAsync(Stream body)
    {
        var marker = "\"Tail\":true"u8.ToArray();
        // The last marker.Length - 1 bytes of a read are kept in front of the next, so a marker that
        // straddles two reads is found once (a whole marker never fits in the carried part).
        var buffer = new byte[64 * 1024 + marker.Length];
        var carried = 0;
        long bytes = 0;
        var results = 0;
        int read;
        while ((read = await body.ReadAsync(buffer.AsMemory(carried, buffer.Length - carried))) > 0)
        {
            bytes += read;
            var filled = buffer.AsSpan(0, carried + read);
            for (var rest = filled; ;)
            {
                var at = rest.IndexOf(marker);
                if (at < 0)
                    break;
                results++;
                rest = rest[(at + marker.Length)..];
            }
            carried = Math.Min(marker.Length - 1, filled.Length);
            filled[^carried..].CopyTo(buffer);
        }
        return (bytes, results, System.Text.Encoding.ASCII.GetString(buffer, carried - 2, 2));
    }
}
