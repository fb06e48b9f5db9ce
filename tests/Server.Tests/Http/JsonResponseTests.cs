using System.Text;
using System.Text.Json;
using Folio.Server.Http;
using Microsoft.AspNetCore.Http;

namespace Folio.Server.Tests.Http;

public class JsonResponseTests
{
    [Fact]
    public async Task WriteAsync_SetsContentTypeAndWritesTheBody_WhenGivenAState()
    {
        var context = new DefaultHttpContext();
        using var body = new MemoryStream();
        context.Response.Body = body;

        await JsonResponse.WriteAsync(context.Response, "Northwind", WriteName, CancellationToken.None);

        Assert.Equal(JsonWriters.ContentType, context.Response.ContentType);
        Assert.Equal("""{"Name":"Northwind"}""", Encoding.UTF8.GetString(body.ToArray()));
    }

    [Fact]
    public async Task Write_LeavesTheBodyUnflushed_UntilTheCallerFlushes()
    {
        var context = new DefaultHttpContext();
        using var body = new MemoryStream();
        context.Response.Body = body;

        JsonResponse.Write(context.Response, "Northwind", WriteName);
        long beforeFlush = body.Length;
        await context.Response.BodyWriter.FlushAsync();

        Assert.Equal(0, beforeFlush);
        Assert.Equal("""{"Name":"Northwind"}""", Encoding.UTF8.GetString(body.ToArray()));
    }

    [Fact]
    public async Task WriteAsync_AllocatesNothing_WhenTheBodyComesFromAStaticMethod()
    {
        var context = new DefaultHttpContext();
        context.Response.Body = Stream.Null;
        await JsonResponse.WriteAsync(context.Response, "Northwind", WriteName, CancellationToken.None);

        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 1000; i++)
        {
            ValueTask<System.IO.Pipelines.FlushResult> flush = JsonResponse.WriteAsync(context.Response, "Northwind", WriteName, CancellationToken.None);
            Assert.True(flush.IsCompletedSuccessfully);
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
    }

    private static void WriteName(Utf8JsonWriter writer, string name)
    {
        writer.WriteStartObject();
        writer.WriteString("Name"u8, name);
        writer.WriteEndObject();
    }
}
