using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using Folio.Indexing.Definitions;

namespace Folio.Indexing.Tests.Definitions;

/// <summary>
/// Properties of the path language over generated corpora: every segment list formats to a text that
/// parses back to it, and the streaming walk (behind includes of loaded documents) finds exactly the
/// strings the JsonElement walk (behind indexes and query includes) finds, in the same order.
/// </summary>
public sealed class FieldPathPropertyTests
{
    // What real property names hold and what the syntax treats specially: separators, brackets, both
    // quotes, backslash, whitespace of several kinds, control characters, non-Latin letters, a surrogate pair.
    private static readonly string[] Pieces =
    [
        "a", "Z", "7", "_", "-", "@", "$", ".", "[", "]", "[]", "'", "\"", "\\", " ", "\t", "\n", "\0",
        "\u00A0", "\u2028", "é", "名", "Ж", "🙂", ",", "(", "*", "/",
    ];

    [Fact]
    public void Format_GeneratedAwkwardSegments_ParsesBackToTheSameSegments()
    {
        var random = new Random(20240611);
        for (var round = 0; round < 5000; round++)
        {
            var segments = new PathSegment[random.Next(1, 5)];
            for (var i = 0; i < segments.Length; i++)
                segments[i] = new PathSegment(RandomName(random, maxPieces: 6), random.Next(3) == 0);

            var text = FieldPath.Format(segments);
            var path = FieldPath.Parse(text);

            Assert.True(segments.SequenceEqual(path.Segments), $"Round {round}: '{text}' parsed to {string.Join(" | ", path.Segments)}.");
            Assert.Equal(text, path.Text);
        }
    }

    [Fact]
    public void CollectStrings_GeneratedDocuments_FindsWhatValuesFinds()
    {
        var random = new Random(7081);
        string[] vocabulary = ["Tags", "Ref Ids", "a.b", "名前", "x[0]", "O'Brien", "e-mail", ""];
        var compared = 0;
        var found = 0;
        for (var round = 0; round < 3000; round++)
        {
            var segments = RandomSegments(random, vocabulary);
            var json = RandomDocument(random, vocabulary, segments, relaxedEscaping: round % 2 == 0);
            using var document = JsonDocument.Parse(json);

            // The path the document was grown along, and one it was not.
            foreach (var path in new[] { FieldPath.Parse(FieldPath.Format(segments)), FieldPath.Parse(FieldPath.Format(RandomSegments(random, vocabulary))) })
            {
                var expected = new List<string>();
                foreach (var value in path.Values(document.RootElement))
                {
                    if (value.ValueKind == JsonValueKind.String)
                        expected.Add(value.GetString()!);
                }
                var streamed = new CollectingSink();
                path.CollectStrings(json, streamed);

                Assert.True(expected.SequenceEqual(streamed.Values), $"Path {path.Text} on {Encoding.UTF8.GetString(json)}: Values found [{string.Join(", ", expected)}], the stream [{string.Join(", ", streamed.Values)}].");
                compared++;
                found += expected.Count > 0 ? 1 : 0;
            }
        }

        // The corpus must exercise hits, not only misses (about one comparison in six finds strings).
        Assert.True(found > compared / 10, $"Only {found} of {compared} comparisons found any string.");
    }

    [Fact]
    public void CollectStrings_NameWrittenTwice_FollowsTheLastAsValuesDoes()
    {
        var json = """{"Ref":"refs/1","Nested":{"Ref":["refs/2"]},"Ref":["refs/3","refs/4"]}"""u8.ToArray();
        using var document = JsonDocument.Parse(json);
        var path = FieldPath.Parse("Ref");
        var streamed = new CollectingSink();

        path.CollectStrings(json, streamed);

        Assert.Equal(["refs/3", "refs/4"], streamed.Values);
        Assert.Equal(["refs/3", "refs/4"], path.Values(document.RootElement).Select(v => v.GetString()));
    }

    [Fact]
    public void CollectStrings_EscapedPropertyNames_MatchTheUnescapedName()
    {
        var json = """{"Ref\u0020Ids":["refs/1"],"\u540d\u524d":"names/1","a\u002eb":"dots/\u0031"}"""u8.ToArray();
        var streamed = new CollectingSink();

        FieldPath.Parse("'Ref Ids'").CollectStrings(json, streamed);
        FieldPath.Parse("名前").CollectStrings(json, streamed);
        FieldPath.Parse("'a.b'").CollectStrings(json, streamed);

        Assert.Equal(["refs/1", "names/1", "dots/1"], streamed.Values);
    }

    private static string RandomName(Random random, int maxPieces)
    {
        var name = new StringBuilder();
        var count = random.Next(0, maxPieces + 1);
        for (var i = 0; i < count; i++)
            name.Append(Pieces[random.Next(Pieces.Length)]);
        return name.ToString();
    }

    private static PathSegment[] RandomSegments(Random random, string[] vocabulary)
    {
        var segments = new PathSegment[random.Next(1, 4)];
        for (var i = 0; i < segments.Length; i++)
            segments[i] = new PathSegment(vocabulary[random.Next(vocabulary.Length)], random.Next(2) == 0);
        return segments;
    }

    /// <summary>
    /// An object of nested objects, arrays (of arrays, of objects), strings, numbers, nulls and booleans,
    /// grown mostly along <paramref name="path"/> so that it often holds something there, sometimes with a
    /// name written twice, missing steps, or the wrong kind of value on the way.
    /// </summary>
    private static byte[] RandomDocument(Random random, string[] vocabulary, PathSegment[] path, bool relaxedEscaping)
    {
        using var stream = new MemoryStream();
        var options = new JsonWriterOptions { Encoder = relaxedEscaping ? JavaScriptEncoder.UnsafeRelaxedJsonEscaping : JavaScriptEncoder.Default };
        using (var writer = new Utf8JsonWriter(stream, options))
            WriteObject(writer, random, vocabulary, path, step: 0, depth: 0);
        return stream.ToArray();
    }

    /// <summary>Writes an object; <paramref name="step"/> is how far along the path it lies, or -1 when off it.</summary>
    private static void WriteObject(Utf8JsonWriter writer, Random random, string[] vocabulary, PathSegment[] path, int step, int depth)
    {
        writer.WriteStartObject();
        var alongPath = step >= 0 && step < path.Length;
        var count = random.Next(alongPath ? 1 : 0, 5);
        var certain = random.Next(count);
        for (var i = 0; i < count; i++)
        {
            var onPath = alongPath && (i == certain || random.Next(4) == 0);
            writer.WritePropertyName(onPath ? path[step].Name : vocabulary[random.Next(vocabulary.Length)]);
            WriteValue(writer, random, vocabulary, path, onPath ? step + 1 : -1, depth + 1);
        }
        writer.WriteEndObject();
    }

    private static void WriteValue(Utf8JsonWriter writer, Random random, string[] vocabulary, PathSegment[] path, int step, int depth)
    {
        // On the way along the path, mostly objects and arrays; at its end, mostly strings (what includes
        // look for) or arrays of them; off it, anything.
        var roll = random.Next(20);
        var container = depth < 6 && (step < 0 ? roll < 8 : step < path.Length ? roll < 17 : roll < 6);
        if (container)
        {
            if (random.Next(3) == 0)
            {
                writer.WriteStartArray();
                var items = random.Next(0, 4);
                for (var i = 0; i < items; i++)
                    WriteValue(writer, random, vocabulary, path, step, depth + 1);
                writer.WriteEndArray();
            }
            else
            {
                WriteObject(writer, random, vocabulary, path, step, depth);
            }
            return;
        }
        switch (random.Next(6))
        {
            case 0:
                writer.WriteNumberValue(random.Next(100));
                break;
            case 1:
                writer.WriteNullValue();
                break;
            case 2:
                writer.WriteBooleanValue(true);
                break;
            case 3:
                writer.WriteStringValue(RandomName(random, maxPieces: 3));
                break;
            default:
                writer.WriteStringValue($"ids/{random.Next(100)}");
                break;
        }
    }

    private sealed class CollectingSink : IPathStringSink
    {
        public List<string> Values { get; } = [];

        public void Add(string value) => Values.Add(value);
    }
}
