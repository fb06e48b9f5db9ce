using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Transfer;

/// <summary>The CLI's <c>export</c>, <c>--from-export</c>, <c>backup</c> and <c>restore</c> against a real server.</summary>
public sealed class CommandLineTransferTests(ServerFixture fixture) : IClassFixture<ServerFixture>, IDisposable
{
    private readonly string _directory = Path.Combine(Path.GetTempPath(), "folio-tests", "cli-" + Guid.NewGuid().ToString("N"));

    private HttpClient Client => fixture.Client;

    private string Url => fixture.Running.Server.Address.ToString();

    public void Dispose() => RunningServer.DeleteDirectory(_directory);

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task ExportThenImportFromExport_CopiesDocumentsAndStaticIndexes(bool gzip)
    {
        string source = await SeedAsync(400);
        string file = Path.Combine(_directory, gzip ? "export.ndjson.gz" : "export.ndjson");
        Directory.CreateDirectory(_directory);

        (int exported, string exportOutput, string exportError) = await RunAsync(["export", "--url", Url, "--database", source, "--output", file, .. gzip ? new[] { "--gzip" } : []]);
        string target = await FolioApi.CreateDatabaseAsync(Client);
        (int imported, string importOutput, string importError) = await RunAsync(["--url", Url, "--database", target, "--from-export", file]);

        Assert.True(exported == 0, exportError);
        Assert.Contains("Exported", exportOutput, StringComparison.Ordinal);
        Assert.False(File.Exists(file + ".partial"));
        Assert.True(imported == 0, importError);
        Assert.Contains("400 documents and 1 index definitions", importOutput, StringComparison.Ordinal);
        Assert.Equal(400, (await FolioApi.StatsAsync(Client, target)).CountOfDocuments);
        JsonElement indexes = await FolioApi.GetJsonAsync(Client, $"/databases/{target}/indexes");
        Assert.Contains("Items/ByN", indexes.GetRawText(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task BackupThenRestore_ThroughTheCommandLine_RestoresFullAndIncremental()
    {
        string source = await SeedAsync(100);
        string directory = Path.Combine(_directory, "set");
        (int full, string fullOutput, string fullError) = await RunAsync(["backup", "--url", Url, "--database", source, "--directory", directory]);
        await FolioApi.StoreAsync(Client, source, "items/extra", """{"N":-1}""");
        (int incremental, string incrementalOutput, string incrementalError) = await RunAsync(["backup", "--url", Url, "--database", source, "--directory", directory]);
        string target = FolioApi.NewDatabaseName();
        (int restored, string restoreOutput, string restoreError) = await RunAsync(["restore", "--url", Url, "--directory", directory, "--name", target]);

        Assert.True(full == 0, fullError);
        Assert.StartsWith("Full backup 0001-full.ndjson.gz", fullOutput, StringComparison.Ordinal);
        Assert.True(incremental == 0, incrementalError);
        Assert.StartsWith("Incremental backup 0002-incremental.ndjson.gz", incrementalOutput, StringComparison.Ordinal);
        Assert.True(restored == 0, restoreError);
        Assert.Contains("Restored 101 documents, 1 indexes", restoreOutput, StringComparison.Ordinal);
        Assert.Equal(101, (await FolioApi.StatsAsync(Client, target)).CountOfDocuments);
    }

    [Fact]
    public async Task Commands_ExitOneWithTheServersReason_WhenItRefuses()
    {
        (int export, _, string exportError) = await RunAsync(["export", "--url", Url, "--database", "no-such-db", "--output", Path.Combine(_directory, "x.ndjson")]);
        (int restore, _, string restoreError) = await RunAsync(["restore", "--url", Url, "--directory", Path.Combine(_directory, "nothing"), "--name", FolioApi.NewDatabaseName()]);

        Assert.Equal(1, export);
        Assert.Contains("404", exportError, StringComparison.Ordinal);
        Assert.Equal(1, restore);
        Assert.Contains("not a Folio backup", restoreError, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("export", "--database", "x")]
    [InlineData("backup", "--directory", "d")]
    [InlineData("restore", "--directory", "d", "--color", "red")]
    public async Task Commands_ExitTwoWithUsage_ForMissingOrUnknownOptions(params string[] args)
    {
        (int exit, _, string error) = await RunAsync(args);

        Assert.Equal(2, exit);
        Assert.Contains("Usage: folio-import export", error, StringComparison.Ordinal);
    }

    private async Task<string> SeedAsync(int count)
    {
        string db = await FolioApi.CreateDatabaseAsync(Client);
        var body = new System.Text.StringBuilder("[");
        for (var i = 0; i < count; i++)
            body.Append(i == 0 ? "" : ",").Append($$$$"""{"Type":"PUT","Id":"items/{{{{i}}}}","Document":{"N":{{{{i}}}},"Odd key.x":"v{{{{i}}}}","@metadata":{"@collection":"Items"}}}""");
        using (HttpResponseMessage inserted = await Client.PostAsync($"/databases/{db}/bulk_insert", FolioApi.Json(body.Append(']').ToString())))
            Assert.Equal(HttpStatusCode.Created, inserted.StatusCode);
        using (HttpResponseMessage index = await Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json("""{"Indexes":[{"Name":"Items/ByN","Collections":["Items"],"Fields":{"N":{"Path":"N","Type":"Double"}}}]}""")))
            Assert.True(index.IsSuccessStatusCode, await index.Content.ReadAsStringAsync());
        return db;
    }

    private static async Task<(int Exit, string Output, string Error)> RunAsync(string[] args)
    {
        using var output = new StringWriter();
        using var error = new StringWriter();
        int exit = await Folio.Import.Program.RunAsync(args, output, error, interactive: false, CancellationToken.None);
        return (exit, output.ToString(), error.ToString());
    }
}
