using System.Net;
using System.Net.Http.Headers;
using System.Text;
using Folio.Server.Http;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.BadInput;

/// <summary>
/// Bodies that are well-formed JSON but hold invalid UTF-8 inside a string the handler reads: the JSON reader checks
/// those bytes only when the string is read, which used to surface as an InvalidOperationException and a 500. The cause
/// came out of tests/Fuzz (the tcp-seeds harness crashed on it in the subscriptions' protocol); these are the HTTP side.
/// </summary>
public class InvalidUtf8BodyTests : IClassFixture<BadInputFixture>
{
    private readonly BadInputFixture _fixture;

    public InvalidUtf8BodyTests(BadInputFixture fixture)
    {
        _fixture = fixture;
    }

    [Theory]
    [InlineData("POST", "/databases/{db}/queries", "{\"Query\":\"from Users where Name = '\\xFF'\"}")]
    [InlineData("POST", "/databases/{db}/queries", "{\"Query\":\"from Users where Name = $p\",\"QueryParameters\":{\"p\":\"\\xFF\"}}")]
    [InlineData("PUT", "/databases/{db}/indexes", "{\"Indexes\":[{\"Name\":\"\\xFF\",\"Collections\":[\"Users\"],\"Fields\":{\"Name\":{\"Path\":\"Name\"}}}]}")]
    [InlineData("PUT", "/databases/{db}/subscriptions", "{\"Name\":\"\\xFF\",\"Query\":\"from Users\"}")]
    public async Task Send_StringThatIsNotUtf8_Returns400AndChangesNothing(string method, string path, string template)
    {
        string db = _fixture.Database;
        DatabaseStats before = await FolioApi.StatsAsync(_fixture.Client, db);

        using var request = new HttpRequestMessage(new HttpMethod(method), path.Replace("{db}", db, StringComparison.Ordinal))
        {
            Content = new ByteArrayContent(Invalid(template)),
        };
        request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/json");
        using HttpResponseMessage response = await _fixture.Client.SendAsync(request);

        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.MalformedJson);
        await FolioApi.AssertServingAsync(_fixture.Client);
        Assert.Equal(before, await FolioApi.StatsAsync(_fixture.Client, db));
    }

    [Theory]
    [InlineData("POST", "/databases/{db}/queries", "{\"Query\":\"from Users where Name = $p\",\"QueryParameters\":{\"p\":\"\\ud800\"}}")]
    [InlineData("PUT", "/databases/{db}/indexes", "{\"Indexes\":[{\"Name\":\"a\\udc00\",\"Collections\":[\"Users\"],\"Fields\":{\"Name\":{\"Path\":\"Name\"}}}]}")]
    [InlineData("PUT", "/databases/{db}/subscriptions", "{\"Name\":\"\\ud800x\",\"Query\":\"from Users\"}")]
    [InlineData("POST", "/databases/{db}/admin/documents-compression/config", "{\"Collections\":[\"\\ud800\"]}")]
    [InlineData("POST", "/admin/databases/set-lock", "{\"DatabaseNames\":[\"\\ud800\"],\"Mode\":\"Unlock\"}")]
    public async Task Send_EscapedUnpairedSurrogate_Returns400AndChangesNothing(string method, string path, string body)
    {
        string db = _fixture.Database;
        DatabaseStats before = await FolioApi.StatsAsync(_fixture.Client, db);

        using var request = new HttpRequestMessage(new HttpMethod(method), path.Replace("{db}", db, StringComparison.Ordinal))
        {
            Content = new StringContent(body, Encoding.UTF8, "application/json"),
        };
        using HttpResponseMessage response = await _fixture.Client.SendAsync(request);

        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.MalformedJson);
        await FolioApi.AssertServingAsync(_fixture.Client);
        Assert.Equal(before, await FolioApi.StatsAsync(_fixture.Client, db));
    }

    /// <summary>The template's UTF-8 with each <c>\xFF</c> written in it replaced by the single byte 0xFF, which no UTF-8 text holds.</summary>
    private static byte[] Invalid(string template)
    {
        var bytes = new List<byte>();
        string[] parts = template.Split(@"\xFF");
        for (int i = 0; i < parts.Length; i++)
        {
            if (i > 0)
                bytes.Add(0xFF);
            bytes.AddRange(Encoding.UTF8.GetBytes(parts[i]));
        }

        return [.. bytes];
    }
}
