using System.Text;
using System.Text.Json;
using Folio.Import;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.BulkInsert;

public sealed class ImporterTests : IClassFixture<ServerFixture>, IDisposable
{
    private readonly ServerFixture _fixture;
    private readonly string _directory = Path.Combine(Path.GetTempPath(), "folio-import-tests", Guid.NewGuid().ToString("N"));

    public ImporterTests(ServerFixture fixture)
    {
        _fixture = fixture;
        Directory.CreateDirectory(_directory);
    }

    public void Dispose() => RunningServer.DeleteDirectory(_directory);

    [Fact]
    public async Task Import_StoresEveryLine_WhenFileIsNewlineDelimitedJson()
    {
        string db = await FolioApi.CreateDatabaseAsync(_fixture.Client);
        var lines = new StringBuilder();
        for (int i = 0; i < 2500; i++)
            lines.Append(CultureInfo($$"""{"@id":"users/{{i}}","Name":"User {{i}}","Index":{{i}}}""")).Append(i % 3 == 0 ? "\r\n" : "\n");
        lines.Append("\n   \n");
        lines.Append("""{"Id":"companies/1","Name":"Acme \"Q\"","Nested":{"Id":"not-this-one"}}""");
        string file = Write("data.jsonl", lines.ToString());

        (int exit, string output, string error) = await ImportAsync("--database", db, file);

        Assert.True(exit == 0, error);
        Assert.Contains("Imported 2,501 documents", output, StringComparison.Ordinal);
        Assert.Contains("docs/s", output, StringComparison.Ordinal);
        Assert.Equal(2501, (await FolioApi.StatsAsync(_fixture.Client, db)).CountOfDocuments);
        JsonElement user = (await FolioApi.LoadAsync(_fixture.Client, db, "users/2499"))!.Value;
        Assert.Equal(2499, user.GetProperty("Index").GetInt32());
        Assert.Equal("Acme \"Q\"", (await FolioApi.LoadAsync(_fixture.Client, db, "companies/1"))!.Value.GetProperty("Name").GetString());
    }

    [Fact]
    public async Task Import_MakesServerIds_WhenArrayFileHasNoIds_AndGzipIsOn()
    {
        string db = await FolioApi.CreateDatabaseAsync(_fixture.Client);
        var array = new StringBuilder("[\n");
        for (int i = 0; i < 3000; i++)
            array.Append(i == 0 ? "  " : ",\n  ").Append(CultureInfo($$"""{"Sku":"sku-{{i}}","Price":{{i}}.5,"Tags":["x",{"deep":[{{i}}]}]}"""));
        array.Append("\n]\n");
        string file = Write("products.json", array.ToString());

        (int exit, string output, string error) = await ImportAsync("--database", db, "--id-prefix", "products", "--gzip", file);

        Assert.True(exit == 0, error);
        Assert.Contains("Imported 3,000 documents", output, StringComparison.Ordinal);
        List<JsonElement> stored = await BulkInsertApi.LoadAllAsync(_fixture.Client, db, "products/");
        Assert.Equal(3000, stored.Count);
        Assert.Contains(stored, d => d.GetProperty("Sku").GetString() == "sku-2999");
    }

    [Fact]
    public async Task Import_FailsNamingTheLine_WhenDocumentHasNoIdAndNoPrefix()
    {
        string db = await FolioApi.CreateDatabaseAsync(_fixture.Client);
        string file = Write("bad.jsonl", "{\"@id\":\"a/1\"}\n{\"@id\":\"a/2\"}\n{\"Name\":\"no id\"}\n");

        (int exit, _, string error) = await ImportAsync("--database", db, file);

        Assert.Equal(1, exit);
        Assert.Contains("bad.jsonl line 3", error, StringComparison.Ordinal);
        Assert.Contains("--id-prefix", error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Import_Answers2_WhenDatabaseIsMissingFromCommandLine()
    {
        string file = Write("one.jsonl", "{\"@id\":\"a/1\"}\n");

        (int exit, _, string error) = await ImportAsync(file);

        Assert.Equal(2, exit);
        Assert.Contains("--database is required", error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Import_ReportsServerProblem_WhenDatabaseDoesNotExist()
    {
        string file = Write("one.jsonl", "{\"@id\":\"a/1\"}\n");

        (int exit, _, string error) = await ImportAsync("--database", "no-such-database", file);

        Assert.Equal(1, exit);
        Assert.Contains("404", error, StringComparison.Ordinal);
    }

    private static string CultureInfo(FormattableString text) => FormattableString.Invariant(text);

    private string Write(string name, string content)
    {
        string path = Path.Combine(_directory, name);
        File.WriteAllText(path, content);
        return path;
    }

    private async Task<(int Exit, string Output, string Error)> ImportAsync(params string[] args)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        string[] all = ["--url", _fixture.Running.Server.Address.ToString(), .. args];
        int exit = await ImportCommand.RunAsync(all, output, error, interactive: false, CancellationToken.None);
        return (exit, output.ToString(), error.ToString());
    }
}
