using System.Text;
using System.Text.Json;
using Folio.Server.Http;

namespace Folio.Server.Documents;

/// <summary>
/// A path to document ids inside a document, as <c>include=</c> names it: property names joined by
/// dots, a <c>[]</c> after a name stepping into every element of an array, e.g. <c>Company</c>,
/// <c>Lines[].Product</c> or <c>Tags[]</c>. String values found at the path are ids to include.
/// </summary>
public sealed class IncludePath
{
    private readonly byte[][] _names;
    private readonly bool[] _arrays;

    private IncludePath(string text, byte[][] names, bool[] arrays)
    {
        Text = text;
        _names = names;
        _arrays = arrays;
    }

    /// <summary>The path as given.</summary>
    public string Text { get; }

    /// <summary>Parses a path.</summary>
    /// <param name="text">The path, e.g. <c>Lines[].Product</c>.</param>
    /// <returns>The parsed path.</returns>
    /// <exception cref="FolioHttpException">400 when a segment is empty or <c>[]</c> is misplaced.</exception>
    public static IncludePath Parse(string text)
    {
        string[] segments = text.Split('.');
        var names = new byte[segments.Length][];
        var arrays = new bool[segments.Length];
        for (int i = 0; i < segments.Length; i++)
        {
            string segment = segments[i];
            bool array = segment.EndsWith("[]", StringComparison.Ordinal);
            string name = array ? segment[..^2] : segment;
            if (name.Length == 0 || name.Contains('[', StringComparison.Ordinal) || name.Contains(']', StringComparison.Ordinal))
                throw QueryParameters.Invalid($"The include path '{text}' is malformed: each step is a property name, optionally followed by [] to step into an array (e.g. Lines[].Product).");
            names[i] = Encoding.UTF8.GetBytes(name);
            arrays[i] = array;
        }

        return new IncludePath(text, names, arrays);
    }

    /// <summary>Adds every string found at the path in <paramref name="json"/> to <paramref name="ids"/>.</summary>
    /// <param name="json">A stored document (valid JSON).</param>
    /// <param name="ids">Collects the ids.</param>
    public void CollectIds(ReadOnlySpan<byte> json, IncludeSet ids)
    {
        // Stored documents were validated on write, so the depth only has to match what was accepted.
        var reader = new Utf8JsonReader(json, new JsonReaderOptions { MaxDepth = 1024 });
        if (reader.Read())
            Walk(ref reader, 0, ids);
    }

    /// <summary>Consumes the value the reader is on, following the path from <paramref name="step"/>.</summary>
    private void Walk(ref Utf8JsonReader reader, int step, IncludeSet ids)
    {
        if (step == _names.Length)
        {
            if (reader.TokenType == JsonTokenType.String)
            {
                ids.Add(reader.GetString()!);
            }
            else
            {
                reader.Skip();
            }

            return;
        }

        if (reader.TokenType != JsonTokenType.StartObject)
        {
            reader.Skip();
            return;
        }

        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            bool match = reader.ValueTextEquals(_names[step]);
            reader.Read();
            if (!match)
            {
                reader.Skip();
                continue;
            }

            if (!_arrays[step])
            {
                Walk(ref reader, step + 1, ids);
                continue;
            }

            if (reader.TokenType != JsonTokenType.StartArray)
            {
                reader.Skip();
                continue;
            }

            while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
                Walk(ref reader, step + 1, ids);
        }
    }
}
