using System.Globalization;
using System.Text.Json;
using Folio.Server.Tests.Support;
using Folio.Storage;
using Folio.Storage.Documents;
using Folio.Storage.Tests.Support;
using Serilog.Events;
using static Folio.Server.Tests.Databases.CompactionRouteTests;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Databases;

/// <summary>
/// A database written by an older build is moved to the current documents format when the server first opens it, before
/// it answers; the log says the move began and how it ended, with the database, the formats and the records as
/// properties, so an operator upgrading a large database sees why its first request waits.
/// </summary>
public sealed class FormatMoveLogTests
{
    private const string MovingTemplate = "Moving the documents of {Database}";
    private const string MovedTemplate = "Moved the documents of {Database}";

    [Fact]
    public async Task Open_DatabaseInAnOlderDocumentsFormat_LogsTheMoveAndServesItsDocuments()
    {
        await using RunningServer first = await RunningServer.StartAsync();
        string db = await CreateDatabaseAsync(first.Client);
        await SeedAsync(first.Client, db, 1_500);
        await first.StopAsync();
        using (DocumentStore store = DocumentStore.Open(StorageOptions.ForPath(Path.Combine(first.DataDir, "Databases", db))))
            Format5Records.Write(store);

        await using (RunningServer second = await RunningServer.StartOnAsync(first.DataDir))
        {
            JsonElement? order = await LoadAsync(second.Client, db, "orders/1234");
            Assert.NotNull(order);
            Assert.Equal(1234, order.Value.GetProperty("Number").GetInt32());

            List<LogEvent> events = [.. second.Log.Events];
            int moving = Assert.Single(Enumerable.Range(0, events.Count), i => events[i].MessageTemplate.Text.StartsWith(MovingTemplate, StringComparison.Ordinal));
            Assert.Equal($"\"{db}\"", events[moving].Properties["Database"].ToString());
            Assert.Equal("5", events[moving].Properties["FromFormat"].ToString());
            Assert.Equal(DocumentStore.DocumentsFormat.ToString(CultureInfo.InvariantCulture), events[moving].Properties["ToFormat"].ToString());
            Assert.Equal("0", events[moving].Properties["RecordsMoved"].ToString());
            Assert.Equal("1500", events[moving].Properties["Records"].ToString());
            int moved = Assert.Single(Enumerable.Range(0, events.Count), i => events[i].MessageTemplate.Text.StartsWith(MovedTemplate, StringComparison.Ordinal));
            Assert.Equal("1500", events[moved].Properties["RecordsMoved"].ToString());
            Assert.Equal("False", events[moved].Properties["Resumed"].ToString());
            Assert.True(moving < moved);
        }

        await using RunningServer third = await RunningServer.StartOnAsync(first.DataDir);
        Assert.NotNull(await LoadAsync(third.Client, db, "orders/1"));
        await CreateDatabaseAsync(third.Client);
        Assert.DoesNotContain(third.Log.Events, e => e.MessageTemplate.Text.StartsWith(MovingTemplate, StringComparison.Ordinal) || e.MessageTemplate.Text.StartsWith(MovedTemplate, StringComparison.Ordinal));
    }
}
