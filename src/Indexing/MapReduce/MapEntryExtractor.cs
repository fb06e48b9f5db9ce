using System.Buffers;
using System.Text.Encodings.Web;
using System.Text.Json;
using Folio.Indexing.Definitions;

namespace Folio.Indexing.MapReduce;

/// <summary>
/// Maps a document to its entries under a <see cref="ReduceDefinition"/>. A group path that steps onto an
/// array (<c>Lines[].Product</c>, <c>Lines.Product</c>, or <c>Tags</c> holding a list) fans out: each item
/// is an entry of its own, the path's rest read from the item, and so are the aggregation paths that go
/// through the same array (<c>Lines[].Quantity</c> sums the quantity of the item, not of every line); the
/// other paths read the document. An empty array gives no entry; a missing or null group value is a group
/// of its own (<c>null</c>). A whole-array group (<see cref="GroupByField.WholeArray"/>) does not fan out: its key is the
/// path's values together. Group paths fanning out over two different arrays, and values a numeric
/// aggregation cannot add, are errors the caller records; the document's other values still count.
/// </summary>
internal sealed class MapEntryExtractor(ReduceDefinition reduce)
{
    private static readonly JsonWriterOptions CanonicalJson = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    // Rest paths by (path, segments skipped): documents put their arrays at the same depths, so this stays small.
    private readonly Dictionary<(FieldPath, int), FieldPath?> _rests = [];
    private readonly ArrayBufferWriter<byte> _key = new(256);
    private readonly List<JsonElement> _values = [];
    private readonly List<MapNumber> _found = [];

    // One writer for every key, and one string per distinct key of the batch (a batch of orders by product
    // has 4 lines an order over a few thousand products): the keys were most of what mapping allocated.
    private readonly Utf8JsonWriter _writer = new(new ArrayBufferWriter<byte>(1), CanonicalJson);
    private readonly Dictionary<string, string> _keys = new(StringComparer.Ordinal);
    private char[] _keyChars = new char[256];

    /// <summary>Adds the entries of <paramref name="root"/> to <paramref name="entries"/>; returns the problems met, or null.</summary>
    public List<string>? Extract(JsonElement root, List<MapEntry> entries)
    {
        List<string>? problems = null;
        var groups = reduce.GroupBy;
        FieldPath? fanPath = null;
        var fanDepth = 0;
        JsonElement fanArray = default;
        Span<int> depths = groups.Count <= 16 ? stackalloc int[groups.Count] : new int[groups.Count];
        var scalars = new JsonElement?[groups.Count];
        for (var g = 0; g < groups.Count; g++)
        {
            if (groups[g].WholeArray)
            {
                scalars[g] = Together(root, groups[g].Path);
                continue;
            }
            var (depth, value) = Walk(root, groups[g].Path);
            depths[g] = depth;
            if (depth == 0)
            {
                scalars[g] = value;
                continue;
            }
            if (fanPath is null)
            {
                fanPath = groups[g].Path;
                fanDepth = depth;
                fanArray = value!.Value;
            }
            else if (!SamePrefix(fanPath, groups[g].Path, fanDepth, depth))
            {
                (problems ??= []).Add($"The GroupBy paths {fanPath.Text} and {groups[g].Path.Text} step onto different arrays; the document maps to no entry.");
                return problems;
            }
        }

        if (fanPath is null)
        {
            entries.Add(Entry(root, default, null, 0, depths, scalars, ref problems));
            return problems;
        }
        foreach (var item in fanArray.EnumerateArray())
            entries.Add(Entry(root, item, fanPath, fanDepth, depths, scalars, ref problems));
        return problems;
    }

    private MapEntry Entry(JsonElement root, JsonElement item, FieldPath? fanPath, int fanDepth, ReadOnlySpan<int> depths, JsonElement?[] scalars, ref List<string>? problems)
    {
        _key.ResetWrittenCount();
        _writer.Reset(_key);
        _writer.WriteStartArray();
        for (var g = 0; g < reduce.GroupBy.Count; g++)
        {
            if (depths[g] == 0)
                WriteCanonical(_writer, scalars[g]);
            else
                WriteCanonical(_writer, Select(item, reduce.GroupBy[g].Path, fanDepth));
        }
        _writer.WriteEndArray();
        _writer.Flush();
        var key = KeyString(_key.WrittenSpan);

        var aggregations = reduce.Aggregations;
        var present = new long[aggregations.Count];
        var numbers = new MapNumber[aggregations.Count][];
        for (var a = 0; a < aggregations.Count; a++)
        {
            var aggregation = aggregations[a];
            numbers[a] = [];
            if (aggregation.Path is null)
            {
                present[a] = 1;
                continue;
            }
            _values.Clear();
            if (fanPath is not null && SamePrefix(fanPath, aggregation.Path, fanDepth, fanDepth))
                CollectValues(item, aggregation.Path, fanDepth);
            else
                aggregation.Path.AddValues(root, _values);
            _found.Clear();
            foreach (var value in _values)
            {
                // Aggregations read scalars: a path ending on an object or an empty array has nothing to add.
                if (value.ValueKind is JsonValueKind.Null or JsonValueKind.Object or JsonValueKind.Array)
                    continue;
                present[a]++;
                if (aggregation.Op == AggregationOp.Count)
                    continue;
                if (TryNumber(value, out var number))
                    _found.Add(number);
                else
                    (problems ??= []).Add($"The aggregation '{aggregation.Name}' ({aggregation.Op}) skipped {Describe(value)} at {aggregation.Path.Text}: it is not a number.");
            }
            if (_found.Count > 0)
                numbers[a] = [.. _found];
        }
        return new MapEntry(key, present, numbers);
    }

    /// <summary>
    /// Follows <paramref name="path"/> from the document: (0, the value or null when missing) when it meets no
    /// array, else (how many names lead to the first array met, that array).
    /// </summary>
    private static (int Depth, JsonElement? Value) Walk(JsonElement root, FieldPath path)
    {
        var value = root;
        var segments = path.Segments;
        for (var d = 0; d < segments.Count; d++)
        {
            if (value.ValueKind != JsonValueKind.Object || !value.TryGetProperty(segments[d].Name, out var child))
                return (0, null);
            if (child.ValueKind == JsonValueKind.Array)
                return (d + 1, child);
            value = child;
        }
        return (0, value);
    }

    private static bool SamePrefix(FieldPath first, FieldPath second, int depth, int secondDepth)
    {
        if (depth != secondDepth || second.Segments.Count < depth)
            return false;
        for (var d = 0; d < depth; d++)
        {
            if (!string.Equals(first.Segments[d].Name, second.Segments[d].Name, StringComparison.Ordinal))
                return false;
        }
        return true;
    }

    /// <summary>
    /// A whole-array group's value, always a list: the values through the path's arrays together, a last array as it is,
    /// a single value as a list of one (so <c>"x"</c> and <c>["x"]</c> are one group); null when the document has none.
    /// Items of an array that lack the rest of the path add nothing to the list.
    /// </summary>
    private JsonElement? Together(JsonElement root, FieldPath path)
    {
        _values.Clear();
        if (!path.Select(root, _values))
        {
            if (_values.Count == 0 || _values[0].ValueKind == JsonValueKind.Null)
                return null;
            if (_values[0].ValueKind == JsonValueKind.Array)
                return _values[0];
        }
        using var list = JsonDocument.Parse(ListJson(_values));
        return list.RootElement.Clone();
    }

    /// <summary>The value of a fanned-out group path's rest in <paramref name="item"/>: the item itself when nothing is left, a list as an array.</summary>
    private JsonElement? Select(JsonElement item, FieldPath path, int skip)
    {
        var rest = Rest(path, skip);
        if (rest is null)
            return item;
        _values.Clear();
        var isList = rest.Select(item, _values);
        if (!isList)
            return _values.Count == 0 ? null : _values[0];
        using var list = JsonDocument.Parse(ListJson(_values));
        return list.RootElement.Clone();
    }

    private void CollectValues(JsonElement item, FieldPath path, int skip)
    {
        var rest = Rest(path, skip);
        if (rest is not null)
        {
            rest.AddValues(item, _values);
            return;
        }
        if (item.ValueKind == JsonValueKind.Array)
            _values.AddRange(item.EnumerateArray());
        else
            _values.Add(item);
    }

    /// <summary>The key's string: the one this extractor made for the same bytes before, if it did.</summary>
    private string KeyString(ReadOnlySpan<byte> utf8)
    {
        if (_keyChars.Length < utf8.Length)
            _keyChars = new char[utf8.Length];
        var chars = _keyChars.AsSpan(0, System.Text.Encoding.UTF8.GetChars(utf8, _keyChars));
        var lookup = _keys.GetAlternateLookup<ReadOnlySpan<char>>();
        if (lookup.TryGetValue(chars, out var key))
            return key;
        key = new string(chars);
        _keys.Add(key, key);
        return key;
    }

    private FieldPath? Rest(FieldPath path, int skip)
    {
        if (skip >= path.Segments.Count)
            return null;
        if (!_rests.TryGetValue((path, skip), out var rest))
        {
            var segments = new PathSegment[path.Segments.Count - skip];
            for (var i = 0; i < segments.Length; i++)
                segments[i] = path.Segments[skip + i];
            rest = FieldPath.Parse(FieldPath.Format(segments));
            _rests[(path, skip)] = rest;
        }
        return rest;
    }

    private static byte[] ListJson(List<JsonElement> values)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer, CanonicalJson))
        {
            writer.WriteStartArray();
            foreach (var value in values)
                WriteCanonical(writer, value);
            writer.WriteEndArray();
        }
        return buffer.WrittenSpan.ToArray();
    }

    /// <summary>Writes a group value so that equal values write equal bytes: whole numbers as integers (<c>2.0</c> is <c>2</c>).</summary>
    internal static void WriteCanonical(Utf8JsonWriter writer, JsonElement? value)
    {
        if (value is not { } element)
        {
            writer.WriteNullValue();
            return;
        }
        switch (element.ValueKind)
        {
            case JsonValueKind.Number when TryNumber(element, out var number):
                if (number.IsInteger)
                    writer.WriteNumberValue(number.Integer);
                else
                    writer.WriteNumberValue(number.Double);
                break;
            case JsonValueKind.String:
                writer.WriteStringValue(element.GetString());
                break;
            case JsonValueKind.Array:
                writer.WriteStartArray();
                foreach (var item in element.EnumerateArray())
                    WriteCanonical(writer, item);
                writer.WriteEndArray();
                break;
            case JsonValueKind.Object:
                writer.WriteStartObject();
                foreach (var property in element.EnumerateObject())
                {
                    writer.WritePropertyName(property.Name);
                    WriteCanonical(writer, property.Value);
                }
                writer.WriteEndObject();
                break;
            default:
                element.WriteTo(writer);
                break;
        }
    }

    /// <summary>A JSON number as an exact integer when it is a whole number within a long, else as a finite double.</summary>
    internal static bool TryNumber(JsonElement value, out MapNumber number)
    {
        number = default;
        if (value.ValueKind != JsonValueKind.Number)
            return false;
        if (value.TryGetInt64(out var integer))
        {
            number = MapNumber.FromInteger(integer);
            return true;
        }
        if (!value.TryGetDouble(out var real) || !double.IsFinite(real))
            return false;
        // 2.0 and 2 are one value; beyond a long's range a whole double stays a double.
        number = Math.Floor(real) == real && real >= long.MinValue && real < 9.2233720368547758E18
            ? MapNumber.FromInteger((long)real)
            : MapNumber.FromDouble(real);
        return true;
    }

    private static string Describe(JsonElement value) => value.ValueKind switch
    {
        JsonValueKind.String => "a string",
        JsonValueKind.True or JsonValueKind.False => "a boolean",
        _ => "a value",
    };
}
