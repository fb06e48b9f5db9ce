using System.Buffers;
using System.IO.Pipelines;
using System.Text.Json;
using Folio.Indexing.Definitions;

namespace Folio.Server.Transfer;

/// <summary>
/// Turns the lines of an export into bulk insert commands: a document line (an object whose <c>@metadata.@id</c> is
/// a string) becomes <c>{"Type":"PUT","Id":…,"Document":line}</c> with the line's bytes copied as they are, and an
/// index line (<c>{"@index": definition}</c>) becomes a definition kept for after the documents. Empty lines are
/// skipped, so a file with a trailing newline or CRLF endings reads the same.
/// </summary>
internal sealed class ImportLineReader
{
    private const int FlushThresholdBytes = 64 * 1024;
    private readonly PipeWriter _commands;
    private readonly int _maxDepth;
    private bool _wroteCommand;
    private bool _stopped;
    private long _pending;

    public ImportLineReader(PipeWriter commands, int maxDepth)
    {
        _commands = commands;
        _maxDepth = maxDepth;
    }

    /// <summary>Lines read so far.</summary>
    public long Lines { get; private set; }

    /// <summary>Index definitions read so far, in file order.</summary>
    public List<IndexDefinition> Definitions { get; } = [];

    /// <summary>Reads every line of <paramref name="body"/>, writing commands as it goes; the caller closes the array with <see cref="Finish"/>.</summary>
    /// <exception cref="ImportLineException">A line is not a document with an id nor an index definition.</exception>
    public async Task ReadAsync(Stream body, CancellationToken cancellationToken)
    {
        PipeReader reader = PipeReader.Create(body);
        try
        {
            while (true)
            {
                ReadResult read = await reader.ReadAsync(cancellationToken);
                ReadOnlySequence<byte> buffer = read.Buffer;
                while (!_stopped && TryTakeLine(ref buffer, out ReadOnlySequence<byte> line))
                    await TakeAsync(line, cancellationToken);
                if (_stopped)
                    return;
                if (read.IsCompleted)
                {
                    if (!buffer.IsEmpty)
                        await TakeAsync(buffer, cancellationToken);
                    reader.AdvanceTo(buffer.End);
                    return;
                }

                reader.AdvanceTo(buffer.Start, buffer.End);
            }
        }
        finally
        {
            await reader.CompleteAsync();
        }
    }

    /// <summary>Closes the command array, so the bulk insert stores every command written before it.</summary>
    public void Finish() => Write(_wroteCommand ? "]"u8 : "[]"u8);

    private static bool TryTakeLine(ref ReadOnlySequence<byte> buffer, out ReadOnlySequence<byte> line)
    {
        SequencePosition? end = buffer.PositionOf((byte)'\n');
        if (end is null)
        {
            line = default;
            return false;
        }

        line = buffer.Slice(0, end.Value);
        buffer = buffer.Slice(buffer.GetPosition(1, end.Value));
        return true;
    }

    private async ValueTask TakeAsync(ReadOnlySequence<byte> line, CancellationToken cancellationToken)
    {
        Lines++;
        byte[]? rented = null;
        ReadOnlySpan<byte> bytes;
        if (line.IsSingleSegment)
        {
            bytes = line.FirstSpan;
        }
        else
        {
            rented = ArrayPool<byte>.Shared.Rent(checked((int)line.Length));
            line.CopyTo(rented);
            bytes = rented.AsSpan(0, (int)line.Length);
        }

        try
        {
            bytes = bytes.TrimEnd("\r"u8).Trim(" \t"u8);
            if (bytes.IsEmpty)
                return;
            Take(bytes);
        }
        finally
        {
            if (rented is not null)
                ArrayPool<byte>.Shared.Return(rented);
        }

        if (_pending >= FlushThresholdBytes)
        {
            _pending = 0;
            // The bulk insert stopped reading (a bad document): what follows would only pile up in the pipe.
            FlushResult flushed = await _commands.FlushAsync(cancellationToken);
            _stopped = flushed.IsCompleted;
        }
    }

    private void Take(ReadOnlySpan<byte> line)
    {
        var reader = new Utf8JsonReader(line, new JsonReaderOptions { MaxDepth = _maxDepth });
        var idStart = 0;
        var idLength = 0;
        var hasId = false;
        var hasIndex = false;
        try
        {
            if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
                throw new ImportLineException(Lines, "a line must be one JSON object.");
            while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
            {
                if (reader.ValueTextEquals("@metadata"u8))
                {
                    reader.Read();
                    hasId |= FindId(ref reader, ref idStart, ref idLength);
                }
                else if (reader.ValueTextEquals(ExportHandler.IndexProperty))
                {
                    reader.Read();
                    hasIndex = true;
                    using JsonDocument definition = JsonDocument.ParseValue(ref reader);
                    Definitions.Add(ParseDefinition(definition.RootElement));
                }
                else
                {
                    reader.Read();
                    reader.Skip();
                }
            }

            // The reader holds one value: reading past the object throws on anything after it.
            reader.Read();
        }
        catch (JsonException e)
        {
            throw new ImportLineException(Lines, $"not JSON: {e.Message}", e);
        }

        if (hasIndex && hasId)
            throw new ImportLineException(Lines, "a line is a document or an index definition, not both.");
        if (hasIndex)
            return;
        if (!hasId)
            throw new ImportLineException(Lines, "a document line needs a string \"@id\" in its \"@metadata\".");

        Write(_wroteCommand ? ","u8 : "["u8);
        _wroteCommand = true;
        Write("{\"Type\":\"PUT\",\"Id\":\""u8);
        Write(line.Slice(idStart, idLength));
        Write("\",\"Document\":"u8);
        Write(line);
        Write("}"u8);
    }

    /// <summary>Where the <c>@id</c> of a metadata object lies in the line: its raw (still escaped) bytes, which can be copied between quotes.</summary>
    private static bool FindId(ref Utf8JsonReader reader, ref int start, ref int length)
    {
        if (reader.TokenType != JsonTokenType.StartObject)
        {
            reader.Skip();
            return false;
        }

        var found = false;
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            bool isId = reader.ValueTextEquals("@id"u8);
            reader.Read();
            if (isId && reader.TokenType == JsonTokenType.String)
            {
                start = checked((int)reader.TokenStartIndex) + 1;
                length = reader.ValueSpan.Length;
                found = true;
            }
            else
            {
                reader.Skip();
            }
        }

        return found;
    }

    private IndexDefinition ParseDefinition(JsonElement json)
    {
        try
        {
            return IndexDefinitionJson.Parse(json);
        }
        catch (IndexDefinitionException e)
        {
            throw new ImportLineException(Lines, $"the index definition is invalid: {e.Message}", e);
        }
    }

    private void Write(ReadOnlySpan<byte> bytes)
    {
        _commands.Write(bytes);
        _pending += bytes.Length;
    }
}
