using System.Buffers;
using System.Text.Json;

namespace Folio.Server.RavenProtocol;

/// <summary>
/// Gives every query result the seeds' clients read an <c>@metadata</c> object. Those clients take each result's
/// <c>@metadata</c> to find its id and fail on a result without one ("Cannot read properties of undefined"); Folio's
/// map/reduce rows and id-less projections carry none, so for those clients an empty one is added.
/// </summary>
internal static class ResultMetadata
{
    private static readonly byte[] EmptyMetadata = "\"@metadata\":{}}"u8.ToArray();

    /// <summary>Writes <paramref name="result"/> (one JSON value) with an empty <c>@metadata</c> added when it is an object without one.</summary>
    public static void Write(Utf8JsonWriter writer, ReadOnlySpan<byte> result)
    {
        if (!NeedsMetadata(result, out var properties))
        {
            writer.WriteRawValue(result, skipInputValidation: true);
            return;
        }
        var close = result.LastIndexOf((byte)'}');
        var length = close + (properties > 0 ? 1 : 0) + EmptyMetadata.Length;
        var buffer = ArrayPool<byte>.Shared.Rent(length);
        try
        {
            result[..close].CopyTo(buffer);
            var at = close;
            if (properties > 0)
                buffer[at++] = (byte)',';
            EmptyMetadata.CopyTo(buffer.AsSpan(at));
            writer.WriteRawValue(buffer.AsSpan(0, length), skipInputValidation: true);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>Whether <paramref name="result"/> is an object with no top-level <c>@metadata</c>; counts its properties.</summary>
    private static bool NeedsMetadata(ReadOnlySpan<byte> result, out int properties)
    {
        properties = 0;
        var reader = new Utf8JsonReader(result);
        if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
            return false;
        while (reader.Read() && reader.TokenType != JsonTokenType.EndObject)
        {
            if (reader.TokenType != JsonTokenType.PropertyName)
                continue;
            if (reader.ValueTextEquals("@metadata"u8))
                return false;
            properties++;
            reader.Read();
            reader.Skip();
        }
        return true;
    }
}
