using System.Text;
using System.Text.Json;

namespace Folio.Server.Tests.BulkInsert;

/// <summary>The commands the bulk insert tests stream, and the checks that a stored one is whole.</summary>
public static class TestCommands
{
    /// <summary>A PUT of document <paramref name="index"/> with a payload of <paramref name="payloadBytes"/> characters.</summary>
    public static string Put(string prefix, int index, int payloadBytes = 200) =>
        $$$"""{"Type":"PUT","Id":"{{{prefix}}}{{{index}}}","Document":{"Name":"User {{{index}}}","Index":{{{index}}},"Email":"user{{{index}}}@example.com","Tags":["a","b"],"Payload":"{{{Payload(index, payloadBytes)}}}","Tail":true}}""";

    /// <summary>A payload whose content depends on the index, so a document mixed with another's bytes shows.</summary>
    public static string Payload(int index, int length)
    {
        char fill = (char)('a' + (index % 26));
        return new string(fill, length);
    }

    /// <summary>The whole body for <paramref name="commands"/>.</summary>
    public static byte[] Body(IReadOnlyList<string> commands) => Encoding.UTF8.GetBytes("[" + string.Join(",", commands) + "]");

    /// <summary>Where command <paramref name="index"/> starts in <see cref="Body"/>.</summary>
    public static long OffsetOf(IReadOnlyList<string> commands, int index)
    {
        long offset = 1;
        for (int i = 0; i < index; i++)
            offset += Encoding.UTF8.GetByteCount(commands[i]) + 1;
        return offset;
    }

    /// <summary>Asserts a loaded document is exactly what <see cref="Put"/> sent for <paramref name="index"/>.</summary>
    public static void AssertWhole(JsonElement document, int index, int payloadBytes = 200)
    {
        Assert.Equal(index, document.GetProperty("Index").GetInt32());
        Assert.Equal($"User {index}", document.GetProperty("Name").GetString());
        Assert.Equal($"user{index}@example.com", document.GetProperty("Email").GetString());
        Assert.Equal(Payload(index, payloadBytes), document.GetProperty("Payload").GetString());
        Assert.True(document.GetProperty("Tail").GetBoolean());
        Assert.True(document.TryGetProperty("@metadata", out JsonElement metadata));
        Assert.True(metadata.TryGetProperty("@change-vector", out _));
    }
}
