using System.IO.Pipelines;
using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Routing;
using Folio.Storage.Documents;

namespace Folio.Server.Documents;

/// <summary>
/// Writes the <c>{"Results":[…],"Includes":{…}}</c> answer of document reads with stored bytes copied
/// as they are. Long answers are flushed as they grow, so a page of large documents streams instead of
/// piling up in memory; <see cref="Document"/> views never cross an await.
/// </summary>
internal static class DocumentResults
{
    // Flushing every document would mean a syscall per small document; this much buffered is cheap.
    private const int FlushThresholdBytes = 64 * 1024;

    /// <summary>Writes a page of a listing: skips <see cref="PageRequest.Start"/> documents, writes up to the page size, then the includes and the page it served.</summary>
    /// <param name="request">The request; its response must not have started.</param>
    /// <param name="reader">The snapshot the cursor walks; kept open by the caller until this completes.</param>
    /// <param name="cursor">The documents in listing order.</param>
    /// <param name="page">Which documents.</param>
    /// <param name="includes">The include paths, or null.</param>
    /// <param name="maxPageSize">The server's cap, stated when it applied.</param>
    /// <returns>Completes when the answer is flushed.</returns>
    public static async ValueTask WritePageAsync(FolioRequest request, DocumentReader reader, DocumentCursor cursor, PageRequest page, IncludeSet? includes, int maxPageSize)
    {
        HttpResponse response = request.Response;
        response.ContentType = JsonWriters.ContentType;
        if (page.Capped)
            response.Headers[PageRequest.CappedHeader] = maxPageSize.ToString(System.Globalization.CultureInfo.InvariantCulture);

        PipeWriter body = response.BodyWriter;
        Utf8JsonWriter writer = JsonWriters.Rent(body);
        writer.WriteStartObject();
        writer.WriteStartArray("Results"u8);
        cursor.Skip(page.Start);
        long pending = 0;
        int written = 0;
        while (written < page.PageSize && cursor.MoveNext())
        {
            pending += WriteCurrent(writer, cursor, includes);
            written++;
            if (pending >= FlushThresholdBytes)
            {
                writer.Flush();
                await body.FlushAsync(request.Aborted);
                pending = 0;
            }
        }

        writer.WriteEndArray();
        WriteIncludes(writer, reader, includes);
        writer.WriteNumber("Start"u8, page.Start);
        writer.WriteNumber("PageSize"u8, page.PageSize);
        writer.WriteBoolean("PageSizeCapped"u8, page.Capped);
        writer.WriteEndObject();
        JsonWriters.Return(writer);
        await body.FlushAsync(request.Aborted);
    }

    /// <summary>Writes the documents of a multi-id load in the order asked, <c>null</c> for each missing one.</summary>
    /// <param name="request">The request; its response must not have started.</param>
    /// <param name="reader">The snapshot to load from.</param>
    /// <param name="ids">The ids, already validated.</param>
    /// <param name="includes">The include paths, or null.</param>
    /// <returns>Completes when the answer is flushed.</returns>
    public static async ValueTask WriteManyAsync(FolioRequest request, DocumentReader reader, IReadOnlyList<string> ids, IncludeSet? includes)
    {
        HttpResponse response = request.Response;
        response.ContentType = JsonWriters.ContentType;
        PipeWriter body = response.BodyWriter;
        Utf8JsonWriter writer = JsonWriters.Rent(body);
        writer.WriteStartObject();
        writer.WriteStartArray("Results"u8);
        long pending = 0;
        for (int i = 0; i < ids.Count; i++)
        {
            pending += WriteById(writer, reader, ids[i], includes);
            if (pending >= FlushThresholdBytes)
            {
                writer.Flush();
                await body.FlushAsync(request.Aborted);
                pending = 0;
            }
        }

        writer.WriteEndArray();
        WriteIncludes(writer, reader, includes);
        writer.WriteEndObject();
        JsonWriters.Return(writer);
        await body.FlushAsync(request.Aborted);
    }

    /// <summary>Writes one loaded document as the whole answer, with its includes.</summary>
    /// <param name="writer">A writer over the response body.</param>
    /// <param name="reader">The snapshot the document came from.</param>
    /// <param name="json">The document's stored JSON.</param>
    /// <param name="includes">The include paths, or null.</param>
    public static void WriteOne(Utf8JsonWriter writer, DocumentReader reader, ReadOnlySpan<byte> json, IncludeSet? includes)
    {
        writer.WriteStartObject();
        writer.WriteStartArray("Results"u8);
        writer.WriteRawValue(json, skipInputValidation: true);
        includes?.CollectFrom(json);
        writer.WriteEndArray();
        WriteIncludes(writer, reader, includes);
        writer.WriteEndObject();
    }

    private static int WriteCurrent(Utf8JsonWriter writer, DocumentCursor cursor, IncludeSet? includes)
    {
        ReadOnlySpan<byte> json = cursor.Current.Json;
        writer.WriteRawValue(json, skipInputValidation: true);
        includes?.CollectFrom(json);
        return json.Length;
    }

    private static int WriteById(Utf8JsonWriter writer, DocumentReader reader, string id, IncludeSet? includes)
    {
        if (!reader.TryGet(id, out Document document))
        {
            writer.WriteNullValue();
            return 4;
        }

        ReadOnlySpan<byte> json = document.Json;
        writer.WriteRawValue(json, skipInputValidation: true);
        includes?.CollectFrom(json);
        return json.Length;
    }

    private static void WriteIncludes(Utf8JsonWriter writer, DocumentReader reader, IncludeSet? includes)
    {
        writer.WriteStartObject("Includes"u8);
        includes?.WriteDocuments(writer, reader);
        writer.WriteEndObject();
    }
}
