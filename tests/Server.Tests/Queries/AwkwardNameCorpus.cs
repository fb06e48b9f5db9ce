using System.Text;
using System.Text.Json;
using Folio.Indexing.Definitions;

namespace Folio.Server.Tests.Queries;

/// <summary>
/// Property names real data has and the query and path syntaxes treat specially, and documents holding a
/// number under each: document i has <c>(i + k) % Distinct</c> under name k, so every name splits the
/// documents differently and a query reading the wrong property gets the wrong documents.
/// </summary>
internal static class AwkwardNameCorpus
{
    public const int DocumentCount = 12;
    public const int Distinct = 6;
    public const string Collection = "Things";
    public const string StaticIndex = "Things/Awkward";

    public static readonly string LongName = string.Concat(Enumerable.Repeat("a very long property name, ", 6)).TrimEnd(' ', ',');

    public static readonly string[] Names =
    [
        "Major Genre", "a.b", "e-mail", "Lines[0]", "[]", "O'Brien", "say \"hi\"", "It's \"both\"", "back\\slash",
        "2nd", "@tag", "名前", "Имя", "🎬 Title", "tab\there", "", "search(x)", "id()", "Price__num", LongName,
    ];

    public static string Id(int document) => $"things/{document}";

    public static int Value(int document, int name) => (document + name) % Distinct;

    /// <summary>The name as a query writes it: in single quotes, with a backslash before a quote or a backslash.</summary>
    public static string Quoted(string name) => "'" + name.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("'", "\\'", StringComparison.Ordinal) + "'";

    /// <summary>Whether a static index may name a field <paramref name="name"/> (the others are reached through a plain field name).</summary>
    public static bool CanNameAStaticField(string name) =>
        !string.IsNullOrWhiteSpace(name) && !name.EndsWith(IndexDefinition.NumericSuffix, StringComparison.Ordinal) && name != IndexDefinition.IdField;

    public static string Document(int document)
    {
        using var stream = new MemoryStream();
        using (var writer = new Utf8JsonWriter(stream))
        {
            writer.WriteStartObject();
            for (var k = 0; k < Names.Length; k++)
                writer.WriteNumber(Names[k], Value(document, k));
            writer.WriteEndObject();
        }
        return Encoding.UTF8.GetString(stream.ToArray());
    }

    /// <summary>
    /// A static index with, for each name k, a field <c>F{k}</c> whose path is the name in quotes and, where
    /// a field may be so named, a field named after the property itself.
    /// </summary>
    public static string StaticIndexDefinition()
    {
        using var stream = new MemoryStream();
        using (var writer = new Utf8JsonWriter(stream))
        {
            writer.WriteStartObject();
            writer.WriteStartArray("Indexes");
            writer.WriteStartObject();
            writer.WriteString("Name", StaticIndex);
            writer.WriteStartArray("Collections");
            writer.WriteStringValue(Collection);
            writer.WriteEndArray();
            writer.WriteStartObject("Fields");
            for (var k = 0; k < Names.Length; k++)
            {
                var path = FieldPath.Format([new PathSegment(Names[k])]);
                WriteField(writer, $"F{k}", path);
                if (CanNameAStaticField(Names[k]))
                    WriteField(writer, Names[k], path);
            }
            writer.WriteEndObject();
            writer.WriteEndObject();
            writer.WriteEndArray();
            writer.WriteEndObject();
        }
        return Encoding.UTF8.GetString(stream.ToArray());
    }

    private static void WriteField(Utf8JsonWriter writer, string name, string path)
    {
        writer.WriteStartObject(name);
        writer.WriteString("Path", path);
        writer.WriteString("Type", "Long");
        writer.WriteEndObject();
    }
}
