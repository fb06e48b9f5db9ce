using System.Buffers;
using System.IO.Pipelines;
using System.Text.Json;

namespace Folio.Server.Subscriptions.Tcp;

/// <summary>
/// Reads JSON values sent one after another on a connection with nothing between them but optional whitespace, as the
/// seeds' clients write them (no newline ends a message, so a value ends where its closing brace is).
/// </summary>
internal sealed class JsonValueReader(PipeReader input, int maxValueBytes)
{
    /// <summary>How the first value of a connection reads, without consuming it (see <see cref="PeekFirstAsync"/>).</summary>
    public enum FirstValue
    {
        /// <summary>The connection closed before a whole value arrived.</summary>
        Closed,

        /// <summary>An object with a string <c>Operation</c>: the seeds' clients' connection header.</summary>
        SeedsHeader,

        /// <summary>Anything else (Folio's own header line, or bytes that are not JSON): left for Folio's line protocol to judge.</summary>
        Other,
    }

    /// <summary>
    /// Looks at the first value without consuming it. A newline before the value is whole, bytes that are not JSON, or
    /// more than the limit mean it is not the seeds' header (their clients write no newline inside a message).
    /// </summary>
    public async Task<FirstValue> PeekFirstAsync(CancellationToken cancellationToken)
    {
        while (true)
        {
            ReadResult read = await input.ReadAsync(cancellationToken);
            ReadOnlySequence<byte> buffer = read.Buffer;
            long end;
            try
            {
                end = ValueEnd(buffer);
            }
            catch (JsonException)
            {
                input.AdvanceTo(buffer.Start);
                return FirstValue.Other;
            }

            if (end > 0)
            {
                FirstValue kind = IsSeedsHeader(buffer.Slice(0, end)) ? FirstValue.SeedsHeader : FirstValue.Other;
                input.AdvanceTo(buffer.Start);
                return kind;
            }

            if (buffer.PositionOf((byte)'\n') is not null || buffer.Length > maxValueBytes)
            {
                input.AdvanceTo(buffer.Start);
                return FirstValue.Other;
            }

            if (read.IsCompleted)
            {
                input.AdvanceTo(buffer.Start);
                return buffer.Length == 0 ? FirstValue.Closed : FirstValue.Other;
            }

            input.AdvanceTo(buffer.Start, buffer.End);
        }
    }

    /// <summary>The next value, or null when the connection closed (whitespace between values, heartbeats, is skipped).</summary>
    /// <exception cref="InvalidDataException">The bytes are not JSON (or not UTF-8), or a value is longer than the limit.</exception>
    public async Task<JsonDocument?> ReadAsync(CancellationToken cancellationToken)
    {
        while (true)
        {
            ReadResult read = await input.ReadAsync(cancellationToken);
            ReadOnlySequence<byte> buffer = read.Buffer;
            long end;
            try
            {
                end = ValueEnd(buffer);
            }
            catch (JsonException ex)
            {
                input.AdvanceTo(buffer.End);
                throw new InvalidDataException($"A message is not JSON: {ex.Message}");
            }

            if (end > 0)
            {
                ReadOnlySequence<byte> message = buffer.Slice(0, end);
                if (!Utf8Text.IsValid(message))
                {
                    input.AdvanceTo(buffer.End);
                    throw new InvalidDataException("A message is not valid UTF-8.");
                }

                JsonDocument value = JsonDocument.Parse(message);
                input.AdvanceTo(buffer.GetPosition(end));
                return value;
            }

            if (buffer.Length > maxValueBytes)
            {
                input.AdvanceTo(buffer.End);
                throw new InvalidDataException($"A message may hold at most {maxValueBytes} bytes.");
            }

            if (read.IsCompleted)
            {
                input.AdvanceTo(buffer.End);
                return null;
            }

            input.AdvanceTo(buffer.Start, buffer.End);
        }
    }

    /// <summary>Where the first whole value in <paramref name="buffer"/> ends, or 0 when it has not all arrived.</summary>
    private static long ValueEnd(ReadOnlySequence<byte> buffer)
    {
        var reader = new Utf8JsonReader(buffer, isFinalBlock: false, state: default);
        while (reader.Read())
        {
            if (reader.CurrentDepth == 0 && reader.TokenType is not JsonTokenType.StartObject and not JsonTokenType.StartArray)
                return reader.BytesConsumed;
        }

        return 0;
    }

    private static bool IsSeedsHeader(ReadOnlySequence<byte> value)
    {
        var reader = new Utf8JsonReader(value);
        if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
            return false;
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            bool operation = reader.ValueTextEquals("Operation"u8);
            if (!reader.Read())
                return false;
            if (operation)
                return reader.TokenType == JsonTokenType.String;
            reader.Skip();
        }

        return false;
    }
}
