using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Wire;

public sealed class StudioConformanceTests(WireFixture fixture) : WireTests(fixture)
{
    [Fact]
    [Exercises("GET /", "GET /studio/{*path}")]
    public async Task StudioRoutes_AnswerAsDocumented_ForGoodAndBadInput()
    {
        // Redirects are part of the contract here, so this client must not follow them.
        using var client = new HttpClient(new SocketsHttpHandler { UseProxy = false, AllowAutoRedirect = false }) { BaseAddress = Server.Server.Address };
        var wire = new WireClient(client, WireContract.Embedded);

        Assert.Equal(302, (await wire.GetAsync("/", "/")).Status);
        Assert.Equal(302, (await wire.GetAsync("/studio/{*path}", "/studio")).Status);
        WireAnswer index = await wire.GetAsync("/studio/{*path}", "/studio/", ("Accept-Encoding", "br"));
        Assert.Equal(200, index.Status);
        Assert.Equal(200, (await wire.GetAsync("/studio/{*path}", "/studio/src/app.js")).Status);
        Assert.Equal(200, (await wire.GetAsync("/studio/{*path}", "/studio/studio.css", ("Accept-Encoding", "gzip"))).Status);
        Assert.Equal(304, (await wire.GetAsync("/studio/{*path}", "/studio/", ("If-None-Match", index.Header("ETag")!))).Status);
        Assert.Equal(404, (await wire.GetAsync("/studio/{*path}", "/studio/no-such-file.js")).Status);

        wire.AssertExercised(["GET /", "GET /studio/{*path}"]);
    }
}
