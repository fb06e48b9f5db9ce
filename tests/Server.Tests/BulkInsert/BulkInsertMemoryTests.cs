using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using Folio.Server.Tests.Support;
using Xunit.Abstractions;

namespace Folio.Server.Tests.BulkInsert;

/// <summary>
/// A client that sends faster than the server can store must be slowed by TCP, not buffered: the
/// server in this process is sampled while a stream many times its memory bound goes through it.
/// </summary>
[Collection(ProcessMemoryCollection.Name)]
public class BulkInsertMemoryTests
{
    private readonly ITestOutputHelper _output;

    public BulkInsertMemoryTests(ITestOutputHelper output)
    {
        _output = output;
    }

    [Fact]
    // The managed figure counts garbage the server GC has not collected yet: a CI run on 2 cores saw 238 MB above the
    // baseline with anonymous RSS flat, so the heap bound leaves that room and RSS is the check on buffering.
    public Task Post_KeepsMemoryBounded_When100MegabyteStreamIsSentFlatOut() =>
        AssertBoundedAsync(documents: 100_000, managedBound: 300L << 20, anonymousBound: 400L << 20);

    [Fact]
    [Trait("Category", "Slow")]
    public Task Post_KeepsMemoryBounded_When1GigabyteStreamIsSentFlatOut() =>
        AssertBoundedAsync(documents: 1_000_000, managedBound: 600L << 20, anonymousBound: 600L << 20);

    private async Task AssertBoundedAsync(int documents, long managedBound, long anonymousBound)
    {
        await using RunningServer server = await RunningServer.StartAsync();
        string db = await FolioApi.CreateDatabaseAsync(server.Client);
        // About 1 KB per command, so the stream is ~documents KB.
        var content = new CommandStreamContent(documents, i => TestCommands.Put("users/", (int)i, payloadBytes: 900));
        GC.Collect();
        long baselineManaged = GC.GetTotalMemory(forceFullCollection: true);
        long baselineAnonymous = MemorySampler.AnonymousResidentBytes();
        using var sampler = new MemorySampler();

        var watch = Stopwatch.StartNew();
        using HttpClient streaming = BulkInsertApi.StreamingClient(server);
        JsonElement summary = await BulkInsertApi.InsertAsync(streaming, db, content);
        watch.Stop();
        MemorySampler.Peaks peaks = await sampler.StopAsync();

        long streamed = content.BytesWritten;
        _output.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"{streamed / 1048576.0:F0} MB in {watch.Elapsed.TotalSeconds:F1} s ({documents / watch.Elapsed.TotalSeconds:F0} docs/s, {summary.GetProperty("Batches").GetInt64()} batches); managed heap peak {peaks.Managed / 1048576.0:F0} MB (baseline {baselineManaged / 1048576.0:F0}), anonymous RSS peak {peaks.Anonymous / 1048576.0:F0} MB (baseline {baselineAnonymous / 1048576.0:F0}), working set peak {peaks.WorkingSet / 1048576.0:F0} MB"));
        Assert.Equal(documents, summary.GetProperty("Documents").GetInt64());
        // Both bounds sit above what the process held before the stream (other tests share it), so they measure the stream alone.
        Assert.True(peaks.Managed < managedBound + baselineManaged, $"The managed heap peaked at {peaks.Managed / 1048576} MB (baseline {baselineManaged / 1048576} MB) while streaming {streamed / 1048576} MB; bound {managedBound / 1048576} MB above the baseline.");
        if (peaks.Anonymous > 0)
            Assert.True(peaks.Anonymous < anonymousBound + baselineAnonymous, $"Anonymous resident memory peaked at {peaks.Anonymous / 1048576} MB (baseline {baselineAnonymous / 1048576} MB) while streaming {streamed / 1048576} MB; bound {anonymousBound / 1048576} MB above the baseline.");
        Assert.Equal(documents, (await FolioApi.StatsAsync(server.Client, db)).CountOfDocuments);
    }
}
