using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Wire;

/// <summary>The changes feed answers as the wire contract says, for good and bad input.</summary>
public sealed class ChangesConformanceTests(WireFixture fixture) : WireTests(fixture)
{
    private const string Changes = "/databases/{db}/changes";

    [Fact]
    [Exercises("GET /databases/{db}/changes")]
    public async Task GetChanges_AnswersAsDocumented_ForGoodAndBadInput()
    {
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        await FolioApi.StoreAsync(Server.Client, db, "users/1", """{"Name":"Ann"}""");
        await FolioApi.StoreAsync(Server.Client, db, "users/2", """{"Name":"Bo"}""");
        using (await Server.Client.DeleteAsync(FolioApi.DocsUri(db, "users/2")))
        {
        }

        string uri = $"/databases/{db}/changes";
        WireAnswer all = await Wire.GetAsync(Changes, uri);
        Assert.Equal(2, all.Body.GetProperty("Results").GetArrayLength());
        await Wire.GetAsync(Changes, $"{uri}?includeDocs=true&prefix=users/&collection=Users&id=users/1&limit=1");
        await Wire.GetAsync(Changes, $"{uri}?feed=longpoll&since=0&timeout=10");
        await Wire.GetAsync(Changes, $"{uri}?feed=longpoll&since=now&timeout=10");
        WireAnswer continuous = await Wire.GetAsync(Changes, $"{uri}?feed=continuous&includeDocs=true&timeout=100&heartbeat=20");
        Assert.Equal(3, continuous.Body.GetArrayLength());

        Assert.Equal(400, (await Wire.GetAsync(Changes, $"{uri}?feed=never")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Changes, $"{uri}?since=x")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Changes, $"{uri}?prefix=")).Status);
        Assert.Equal(404, (await Wire.GetAsync(Changes, "/databases/no-such-db/changes")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Changes, "/databases/bad%20name/changes")).Status);

        AssertExercised();
    }
}
