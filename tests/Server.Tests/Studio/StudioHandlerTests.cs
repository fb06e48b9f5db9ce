using System.IO.Compression;
using System.Net;
using System.Text;
using System.Text.RegularExpressions;
using Folio.Server.Http;
using Folio.Server.Studio;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Studio;

/// <summary>The studio's files as a browser gets them from a real server.</summary>
public sealed partial class StudioHandlerTests : IClassFixture<ServerFixture>, IDisposable
{
    private readonly HttpClient _client;

    public StudioHandlerTests(ServerFixture fixture)
    {
        // Raw answers: no redirect following, no transparent decompression.
        _client = new HttpClient(new SocketsHttpHandler { UseProxy = false, AllowAutoRedirect = false, AutomaticDecompression = DecompressionMethods.None })
        {
            BaseAddress = fixture.Running.Server.Address,
        };
    }

    public void Dispose() => _client.Dispose();

    [Fact]
    public async Task GetRoot_RedirectsToTheStudio()
    {
        using HttpResponseMessage response = await _client.GetAsync("/");

        Assert.Equal(HttpStatusCode.Found, response.StatusCode);
        Assert.Equal("/studio/", response.Headers.Location?.OriginalString);
    }

    [Fact]
    public async Task GetStudio_RedirectsToTheFolder_WhenTheSlashIsMissing()
    {
        using HttpResponseMessage response = await _client.GetAsync("/studio");

        Assert.Equal(HttpStatusCode.Found, response.StatusCode);
        Assert.Equal("/studio/", response.Headers.Location?.OriginalString);
    }

    [Fact]
    public async Task GetStudio_ServesIndexHtml_WithCachingAndSecurityHeaders()
    {
        using HttpResponseMessage response = await _client.GetAsync("/studio/");
        string html = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/html", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal("utf-8", response.Content.Headers.ContentType?.CharSet);
        Assert.Contains("<script type=\"module\" src=\"src/app.js\"></script>", html, StringComparison.Ordinal);
        Assert.Matches("^\"[A-Za-z0-9_-]+\"$", response.Headers.ETag?.Tag);
        Assert.True(response.Headers.CacheControl?.NoCache);
        Assert.Contains("Accept-Encoding", response.Headers.Vary);
        Assert.StartsWith("default-src 'self'", response.Headers.GetValues("Content-Security-Policy").Single(), StringComparison.Ordinal);
        Assert.Equal("nosniff", response.Headers.GetValues("X-Content-Type-Options").Single());
    }

    [Theory]
    [InlineData("/studio/src/app.js", "text/javascript")]
    [InlineData("/studio/src/views/documents.js", "text/javascript")]
    [InlineData("/studio/studio.css", "text/css")]
    [InlineData("/studio/favicon.svg", "image/svg+xml")]
    public async Task GetFile_AnswersItsContentType(string path, string mediaType)
    {
        using HttpResponseMessage response = await _client.GetAsync(path);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(mediaType, response.Content.Headers.ContentType?.MediaType);
        Assert.NotEmpty(await response.Content.ReadAsByteArrayAsync());
    }

    [Fact]
    public async Task GetFile_Answers304_WhenIfNoneMatchNamesItsETag()
    {
        using HttpResponseMessage first = await _client.GetAsync("/studio/src/api.js");
        string etag = first.Headers.ETag!.Tag;

        using var again = new HttpRequestMessage(HttpMethod.Get, "/studio/src/api.js");
        again.Headers.TryAddWithoutValidation("If-None-Match", $"\"other\", W/{etag}");
        using HttpResponseMessage notModified = await _client.SendAsync(again);
        using var stale = new HttpRequestMessage(HttpMethod.Get, "/studio/src/api.js");
        stale.Headers.TryAddWithoutValidation("If-None-Match", "\"other\"");
        using HttpResponseMessage changed = await _client.SendAsync(stale);

        Assert.Equal(HttpStatusCode.NotModified, notModified.StatusCode);
        Assert.Equal(etag, notModified.Headers.ETag?.Tag);
        Assert.Empty(await notModified.Content.ReadAsByteArrayAsync());
        Assert.Equal(HttpStatusCode.OK, changed.StatusCode);
    }

    [Theory]
    [InlineData("br", "br")]
    [InlineData("gzip, deflate, br, zstd", "br")]
    [InlineData("gzip", "gzip")]
    [InlineData("br;q=0, gzip;q=0.5", "gzip")]
    [InlineData("identity", null)]
    [InlineData(null, null)]
    public async Task GetFile_CompressesAsAcceptEncodingAllows_AndDecompressesToTheFile(string? acceptEncoding, string? expected)
    {
        byte[] identity = StudioAssets.All["src/api.js"].Identity;
        using var request = new HttpRequestMessage(HttpMethod.Get, "/studio/src/api.js");
        if (acceptEncoding is not null)
            request.Headers.TryAddWithoutValidation("Accept-Encoding", acceptEncoding);

        using HttpResponseMessage response = await _client.SendAsync(request);
        byte[] body = await response.Content.ReadAsByteArrayAsync();

        Assert.Equal(expected, response.Content.Headers.ContentEncoding.SingleOrDefault());
        Assert.Equal(body.Length, response.Content.Headers.ContentLength);
        byte[] decoded = expected switch
        {
            "br" => Decompress(new BrotliStream(new MemoryStream(body), CompressionMode.Decompress)),
            "gzip" => Decompress(new GZipStream(new MemoryStream(body), CompressionMode.Decompress)),
            _ => body,
        };
        Assert.Equal(identity, decoded);
        if (expected is not null)
            Assert.True(body.Length < identity.Length / 2, $"{expected} made {identity.Length} bytes into {body.Length}.");
    }

    [Theory]
    [InlineData("/studio/no-such-file.js")]
    [InlineData("/studio/src")]
    [InlineData("/studio/studio.css.gz")]
    [InlineData("/studio/SRC/APP.JS")]
    public async Task GetFile_Answers404Problem_ForAPathThatIsNoFile(string path)
    {
        using HttpResponseMessage response = await _client.GetAsync(path);

        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.NotFound, ProblemTypes.StudioFileNotFound);
    }

    [Fact]
    public void Assets_HoldEveryModuleTheStudioImports()
    {
        var assets = StudioAssets.All;
        Assert.Contains("index.html", assets.Keys);
        foreach (var (path, asset) in assets)
        {
            if (!path.EndsWith(".js", StringComparison.Ordinal))
                continue;
            string folder = path.Contains('/', StringComparison.Ordinal) ? path[..(path.LastIndexOf('/') + 1)] : string.Empty;
            foreach (Match import in ModuleImport().Matches(Encoding.UTF8.GetString(asset.Identity)))
            {
                string target = Path.GetFullPath(Path.Combine("/", folder, import.Groups["path"].Value))[1..].Replace('\\', '/');
                Assert.True(assets.ContainsKey(target), $"{path} imports {import.Groups["path"].Value}, which is not embedded ({target}).");
            }
        }
    }

    [Theory]
    [InlineData(null, StudioEncoding.Identity)]
    [InlineData("", StudioEncoding.Identity)]
    [InlineData("*", StudioEncoding.Brotli)]
    [InlineData("*;q=0", StudioEncoding.Identity)]
    [InlineData("br;q=0, *", StudioEncoding.Gzip)]
    [InlineData("GZIP", StudioEncoding.Gzip)]
    [InlineData("gzip;q=0", StudioEncoding.Identity)]
    [InlineData("deflate, br;q=0.1", StudioEncoding.Brotli)]
    public void Choose_PicksTheBestAcceptedCoding(string? header, StudioEncoding expected) =>
        Assert.Equal(expected, AcceptEncoding.Choose(header));

    private static byte[] Decompress(Stream stream)
    {
        using (stream)
        {
            using var output = new MemoryStream();
            stream.CopyTo(output);
            return output.ToArray();
        }
    }

    [GeneratedRegex(@"(?:from|import)\s*\(?\s*'(?<path>\.{1,2}/[^']+\.js)'")]
    private static partial Regex ModuleImport();
}
