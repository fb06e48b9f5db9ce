using System.Buffers;
using System.IO.Compression;
using System.IO.Pipelines;
using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Storage.Documents;

namespace Folio.Server.Backup;

/// <summary>Reading a backup file's lines (see <see cref="BackupLines"/>).</summary>
public sealed partial class BackupRestorer
{
    private delegate LineAction LineHandler(ReadOnlySpan<byte> line, long number);

    private enum LineAction
    {
        Continue,
        Flush,
        Stop,
    }

    /// <summary>Hands each non-empty line of a gzipped NDJSON file to <paramref name="handler"/>; awaits <paramref name="flush"/> when it asks.</summary>
    private static async Task ReadLinesAsync(string path, LineHandler handler, Func<ValueTask>? flush, CancellationToken cancellationToken)
    {
        await using var file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, 1 << 16, FileOptions.Asynchronous | FileOptions.SequentialScan);
        await using var gzip = new GZipStream(file, CompressionMode.Decompress);
        PipeReader pipe = PipeReader.Create(gzip, new StreamPipeReaderOptions(bufferSize: 1 << 16));
        long number = 0;
        try
        {
            while (true)
            {
                ReadResult read = await pipe.ReadAsync(cancellationToken);
                ReadOnlySequence<byte> buffer = read.Buffer;
                LineAction action = LineAction.Continue;
                while (action != LineAction.Stop && TakeLine(ref buffer, read.IsCompleted, out ReadOnlySequence<byte> line))
                {
                    number++;
                    if (line.IsEmpty)
                        continue;
                    LineAction next = line.IsSingleSegment ? handler(line.FirstSpan, number) : handler(line.ToArray(), number);
                    if (next != LineAction.Continue)
                        action = next;
                    if (next == LineAction.Flush)
                        break;
                }

                pipe.AdvanceTo(buffer.Start, buffer.End);
                if (action == LineAction.Stop)
                    return;
                if (action == LineAction.Flush && flush is not null)
                    await flush();
                if (read.IsCompleted && buffer.IsEmpty)
                    return;
            }
        }
        catch (InvalidDataException e)
        {
            throw new BackupException($"{Path.GetFileName(path)} is not readable gzip after line {number}: {e.Message}", e);
        }
        finally
        {
            await pipe.CompleteAsync();
        }
    }

    private static bool TakeLine(ref ReadOnlySequence<byte> buffer, bool completed, out ReadOnlySequence<byte> line)
    {
        SequencePosition? end = buffer.PositionOf((byte)'\n');
        if (end is null)
        {
            // The last line of a file may lack its newline.
            line = buffer;
            bool last = completed && !buffer.IsEmpty;
            if (last)
                buffer = buffer.Slice(buffer.End);
            return last;
        }

        line = buffer.Slice(0, end.Value);
        buffer = buffer.Slice(buffer.GetPosition(1, end.Value));
        return true;
    }

    private static LineAction ReadHeaderLine(ReadOnlySpan<byte> line, long number, string path, Header header)
    {
        ReadOnlySpan<byte> first = FirstProperty(line, number, path);
        if (first.SequenceEqual(BackupLines.Etag))
            return LineAction.Stop;
        using JsonDocument json = Parse(line, number, path);
        if (first.SequenceEqual(BackupLines.Index))
        {
            try
            {
                header.Definitions.Add(IndexDefinitionJson.Parse(json.RootElement.GetProperty("@index")));
            }
            catch (IndexDefinitionException e)
            {
                throw Bad(path, number, $"its index definition is invalid: {e.Message}");
            }
        }
        else if (first.SequenceEqual(BackupLines.Subscription))
        {
            JsonElement subscription = json.RootElement.GetProperty("@subscription");
            if (subscription.TryGetProperty("Name", out JsonElement name) && name.ValueKind == JsonValueKind.String
                && subscription.TryGetProperty("Query", out JsonElement query) && query.ValueKind == JsonValueKind.String
                && subscription.TryGetProperty("AcknowledgedEtag", out JsonElement acknowledged) && acknowledged.TryGetInt64(out long etag))
            {
                header.Subscriptions.Add(new SubscriptionPosition(name.GetString()!, query.GetString()!, etag));
            }
            else
            {
                throw Bad(path, number, "a subscription needs a string Name and Query and a numeric AcknowledgedEtag");
            }
        }
        else
        {
            throw Bad(path, number, "it is not an index, a subscription, a document or a delete");
        }

        return LineAction.Continue;
    }

    private void ReadChangeLine(ReadOnlySpan<byte> line, long number, string path, Batch batch)
    {
        var reader = new Utf8JsonReader(line, new JsonReaderOptions { MaxDepth = _maxJsonDepth + 2 });
        try
        {
            if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject || !reader.Read() || reader.TokenType != JsonTokenType.PropertyName)
                throw Bad(path, number, "it is not a JSON object");
            if (reader.ValueTextEquals(BackupLines.Index) || reader.ValueTextEquals(BackupLines.Subscription))
                return;
            if (!reader.ValueTextEquals(BackupLines.Etag) || !reader.Read() || !reader.TryGetInt64(out long etag) || !reader.Read())
                throw Bad(path, number, "a change must start with its numeric \"@etag\"");
            if (reader.ValueTextEquals(BackupLines.Id))
            {
                if (!reader.Read() || reader.TokenType != JsonTokenType.String)
                    throw Bad(path, number, "\"@id\" must be a string");
                string id = reader.GetString()!;
                if (!reader.Read() || !reader.ValueTextEquals(BackupLines.Document) || !reader.Read() || reader.TokenType != JsonTokenType.StartObject)
                    throw Bad(path, number, "a document line needs its \"@document\" object after \"@id\"");
                int start = (int)reader.TokenStartIndex;
                reader.Skip();
                ReadOnlySpan<byte> document = line[start..(int)reader.BytesConsumed];
                batch.Commands.Add(new DocumentCommand(DocumentCommandType.Put, id, PreparedDocument.Parse(document, _maxJsonDepth), null));
                batch.Bytes += document.Length;
            }
            else if (reader.ValueTextEquals(BackupLines.Delete))
            {
                string? id = null;
                if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
                    throw Bad(path, number, "\"@delete\" must be an object");
                while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
                {
                    bool isId = reader.ValueTextEquals("Id"u8);
                    reader.Read();
                    if (isId && reader.TokenType == JsonTokenType.String)
                        id = reader.GetString();
                    else
                        reader.Skip();
                }

                batch.Commands.Add(new DocumentCommand(DocumentCommandType.Delete, id ?? throw Bad(path, number, "a delete needs its string \"Id\""), null, null));
            }
            else
            {
                throw Bad(path, number, "a change is a document (\"@id\", \"@document\") or a delete (\"@delete\")");
            }

            batch.OriginalEtags.Add(etag);
        }
        catch (JsonException e)
        {
            throw Bad(path, number, $"it is not valid JSON ({e.Message})");
        }
        catch (DocumentValidationException e)
        {
            throw Bad(path, number, $"its document is invalid ({e.Message})");
        }
    }

    private static ReadOnlySpan<byte> FirstProperty(ReadOnlySpan<byte> line, long number, string path)
    {
        var reader = new Utf8JsonReader(line);
        try
        {
            if (reader.Read() && reader.TokenType == JsonTokenType.StartObject && reader.Read() && reader.TokenType == JsonTokenType.PropertyName && !reader.ValueIsEscaped)
                return reader.ValueSpan;
        }
        catch (JsonException e)
        {
            throw Bad(path, number, $"it is not valid JSON ({e.Message})");
        }

        throw Bad(path, number, "it is not a JSON object");
    }

    private static JsonDocument Parse(ReadOnlySpan<byte> line, long number, string path)
    {
        try
        {
            return JsonDocument.Parse(line.ToArray());
        }
        catch (JsonException e)
        {
            throw Bad(path, number, $"it is not valid JSON ({e.Message})");
        }
    }

    private static BackupException Bad(string path, long number, string reason) =>
        new($"{Path.GetFileName(path)}, line {number}: {reason}.");
}
