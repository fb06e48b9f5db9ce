using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.Json;

namespace Folio.Indexing.Definitions;

/// <summary>
/// A path into a JSON document, the one path language of indexes, projections, facets and includes:
/// property names joined by '.', each bare (<c>ShipTo.Country</c>, <c>名前</c>, <c>e-mail</c>) or in single
/// or double quotes when it holds '.', '[', ']', a quote, whitespace or a control character, or is
/// empty (<c>'Major Genre'</c>, <c>Address.'e-mail.work'</c>, <c>"O'Brien"</c>); inside quotes a
/// backslash escapes the quote and itself. Arrays are walked wherever the path meets them, so
/// <c>Tags</c> on an array means its items; <c>[]</c> after a name (<c>Lines[].Product</c>,
/// <c>Tags[]</c>) says so explicitly and makes a projection return the items of a last array rather than
/// the array itself. A last name <c>Count</c> or <c>Length</c> (either casing) that the value it follows does not hold
/// gives that value's size, as the seeds' paths do (<c>Lines.Count</c>, <c>Name.Length</c>): an array's items (when none
/// of them is an object holding the name and the array is not marked <c>[]</c>), a string's characters, an object's
/// properties.
/// </summary>
public sealed class FieldPath
{
    // Stored documents were validated on write, so the streaming walk only has to accept what was.
    private const int MaxStoredDepth = 1024;

    private readonly string[] _names;
    private readonly byte[][] _utf8Names;
    private readonly bool _walksLastArray;
    private readonly bool _endsInSize;
    private string? _queryText;

    /// <summary>Sizes as JSON numbers, made once each: a path ending in a size gives one per document it reads.</summary>
    private static readonly StrongBox<JsonElement>?[] SmallSizes = new StrongBox<JsonElement>?[256];

    private FieldPath(PathSegment[] segments)
    {
        Segments = segments;
        Text = FieldPathSyntax.Format(segments);
        _names = new string[segments.Length];
        _utf8Names = new byte[segments.Length][];
        for (var i = 0; i < segments.Length; i++)
        {
            _names[i] = segments[i].Name;
            _utf8Names[i] = Encoding.UTF8.GetBytes(segments[i].Name);
        }
        _walksLastArray = segments[^1].MarksArray;
        _endsInSize = segments.Length > 1 && !segments[^1].MarksArray && segments[^1].Name is "Count" or "count" or "Length" or "length";
    }

    /// <summary>The path in canonical form: names quoted only where they must be. Parsing it gives this path again.</summary>
    public string Text { get; }

    /// <summary>
    /// The path as a query writes it: each name bare when a query takes it bare (letters, digits, '_' and
    /// '@', not starting with a digit) and in quotes otherwise (<c>Address.'e-mail'</c>, <c>'2nd'</c>).
    /// Parsing it, as a query's field or as a path, gives this path again.
    /// </summary>
    public string QueryText => _queryText ??= FieldPathSyntax.Format(Segments, static name => !FieldPathSyntax.IsQueryBare(name));

    /// <summary>The steps of the path.</summary>
    public IReadOnlyList<PathSegment> Segments { get; }

    /// <summary>Parses a path.</summary>
    /// <param name="text">The path, e.g. <c>Lines[].Product</c> or <c>Lines[].'Unit Price'</c>.</param>
    /// <returns>The parsed path.</returns>
    /// <exception cref="FieldPathException">The text is not a path; the message says what is wrong and where.</exception>
    public static FieldPath Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        return new FieldPath(FieldPathSyntax.Parse(text));
    }

    /// <summary>
    /// The path made of <paramref name="segments"/>, for a reader that has split the text itself (a query's
    /// field, whose quoted names follow the query's escapes); throws <see cref="ArgumentException"/> for no
    /// segment or a name with an unpaired surrogate.
    /// </summary>
    internal static FieldPath FromSegments(PathSegment[] segments) => new(segments);

    /// <summary>
    /// The canonical text of a path made of <paramref name="segments"/>: each name bare when it can be, in
    /// quotes when it must be, so that <see cref="Parse"/> gives back the same segments.
    /// </summary>
    /// <param name="segments">At least one segment; names must be well-formed UTF-16.</param>
    /// <returns>The text, e.g. <c>Lines[].'Unit Price'</c>.</returns>
    public static string Format(IReadOnlyList<PathSegment> segments)
    {
        ArgumentNullException.ThrowIfNull(segments);
        return FieldPathSyntax.Format(segments);
    }

    /// <summary>
    /// The values at this path in <paramref name="root"/> as an index sees them: arrays met on the way or
    /// at the end are walked (nested ones too); objects and empty arrays at the end count as values (the
    /// field exists with nothing to match); missing properties give none. A name an object holds twice
    /// means its last value.
    /// </summary>
    public List<JsonElement> Values(JsonElement root)
    {
        var values = new List<JsonElement>();
        Collect(root, 0, forIndex: true, values);
        return values;
    }

    /// <summary><see cref="Values(JsonElement)"/>, added to a list the caller reuses.</summary>
    public void AddValues(JsonElement root, List<JsonElement> values) => Collect(root, 0, forIndex: true, values);

    /// <summary>
    /// The values at this path in <paramref name="root"/> as a projection returns them: arrays on the way
    /// are walked, an array at the end is kept whole unless the path ends in <c>[]</c>. Returns whether
    /// an array was walked, that is whether the values are a list rather than at most one value.
    /// </summary>
    public bool Select(JsonElement root, List<JsonElement> values) => Collect(root, 0, forIndex: false, values);

    /// <summary>
    /// Hands <paramref name="sink"/> every string <see cref="Values"/> would find in the document, in the
    /// same order, reading the UTF-8 JSON as a stream without building a document: the walk behind
    /// includes of loaded documents, which runs on every such read.
    /// </summary>
    /// <param name="utf8Json">A stored document (valid JSON).</param>
    /// <param name="sink">Takes the strings.</param>
    public void CollectStrings(ReadOnlySpan<byte> utf8Json, IPathStringSink sink)
    {
        ArgumentNullException.ThrowIfNull(sink);
        var reader = new Utf8JsonReader(utf8Json, new JsonReaderOptions { MaxDepth = MaxStoredDepth });
        if (reader.Read())
            Walk(ref reader, 0, sink);
    }

    /// <inheritdoc/>
    public override string ToString() => Text;

    // arrayItem: the element is an item of an array walked at this depth; it was not reached by its name, so a size
    // (a last Count or Length) is not its to give.
    private bool Collect(JsonElement element, int depth, bool forIndex, List<JsonElement> values, bool arrayItem = false)
    {
        var atEnd = depth == _names.Length;
        if (_endsInSize && !arrayItem && depth == _names.Length - 1 && SizeOf(element, depth) is { } size)
        {
            values.Add(size);
            return false;
        }
        if (element.ValueKind == JsonValueKind.Array && (!atEnd || forIndex || _walksLastArray))
        {
            if (atEnd && forIndex && element.GetArrayLength() == 0)
                values.Add(element);
            foreach (var item in element.EnumerateArray())
                Collect(item, depth, forIndex, values, arrayItem: true);
            return true;
        }
        if (atEnd)
        {
            values.Add(element);
            return false;
        }
        return element.ValueKind == JsonValueKind.Object && element.TryGetProperty(_names[depth], out var child)
            && Collect(child, depth + 1, forIndex, values);
    }

    /// <summary>
    /// The size a last <c>Count</c> or <c>Length</c> stands for at <paramref name="element"/>, or null when the name is a
    /// property to read as any other: an object holding it, or an array marked <c>[]</c> or with an object item holding it.
    /// </summary>
    private JsonElement? SizeOf(JsonElement element, int depth)
    {
        switch (element.ValueKind)
        {
            case JsonValueKind.Array:
                if (Segments[depth - 1].MarksArray)
                    return null;
                foreach (var item in element.EnumerateArray())
                {
                    if (item.ValueKind == JsonValueKind.Object && item.TryGetProperty(_names[depth], out _))
                        return null;
                }
                return Size(element.GetArrayLength());
            case JsonValueKind.String:
                // UTF-16 units, as .NET's Length counts them, read from the UTF-8 without making the string.
                var raw = JsonMarshal.GetRawUtf8Value(element);
                return Size(raw.IndexOf((byte)'\\') < 0 ? Encoding.UTF8.GetCharCount(raw[1..^1]) : element.GetString()!.Length);
            case JsonValueKind.Object:
                if (element.TryGetProperty(_names[depth], out _))
                    return null;
                var count = 0;
                foreach (var _ in element.EnumerateObject())
                    count++;
                return Size(count);
            default:
                return null;
        }
    }

    private static JsonElement Size(int size)
    {
        if (size >= SmallSizes.Length)
            return JsonSerializer.SerializeToElement(size);
        // Boxed so that threads racing to fill a slot each store a whole reference, never half an element.
        return (SmallSizes[size] ??= new StrongBox<JsonElement>(JsonSerializer.SerializeToElement(size))).Value;
    }

    /// <summary>Consumes the value the reader is on, following the path from <paramref name="depth"/> as <see cref="Collect"/> does for an index.</summary>
    private void Walk(ref Utf8JsonReader reader, int depth, IPathStringSink sink)
    {
        switch (reader.TokenType)
        {
            case JsonTokenType.StartArray:
                while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
                    Walk(ref reader, depth, sink);
                break;
            case JsonTokenType.String when depth == _utf8Names.Length:
                sink.Add(reader.GetString()!);
                break;
            case JsonTokenType.StartObject when depth < _utf8Names.Length:
                WalkProperty(ref reader, depth, sink);
                break;
            default:
                reader.Skip();
                break;
        }
    }

    private void WalkProperty(ref Utf8JsonReader reader, int depth, IPathStringSink sink)
    {
        // A name the object holds twice means its last value, as JsonElement.TryGetProperty reads it for
        // indexing; so the walk keeps a copy of the reader where the last match began (a struct copy, no
        // allocation) and follows it once the whole object has been read.
        var name = _utf8Names[depth];
        var match = default(Utf8JsonReader);
        var found = false;
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            var isMatch = reader.ValueTextEquals(name);
            reader.Read();
            if (isMatch)
            {
                match = reader;
                found = true;
            }
            reader.Skip();
        }
        if (found)
            Walk(ref match, depth + 1, sink);
    }
}
