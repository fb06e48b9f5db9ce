using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Queries;
using Folio.Indexing.Rql;
using Folio.Indexing.Search;

namespace Folio.Indexing.Querying.Highlighting;

/// <summary>
/// The highlightings a query asked for (<c>include highlight(field, fragmentLength, fragmentCount [, $options])</c>),
/// resolved against its index: per highlighted field, the document text it reads, the terms it marks and how. The
/// same for every search engine: a result's stored text is analyzed again with the field's analyzer and the tokens the
/// query matched are marked, so both engines give the same fragments.
/// </summary>
internal sealed class Highlights
{
    /// <summary>The tags around a matched token unless the options name others.</summary>
    public const string DefaultPreTag = "<b>";

    /// <inheritdoc cref="DefaultPreTag"/>
    public const string DefaultPostTag = "</b>";

    private readonly List<Field> _fields;

    private Highlights(List<Field> fields) => _fields = fields;

    /// <summary>The highlightings of <paramref name="query"/>, or null when it asks for none.</summary>
    /// <exception cref="RqlParseException">A fragment length or count is not a whole number above 0, or the options are not an object of tags.</exception>
    /// <exception cref="QueryException">A highlighted field is not a full-text field of the index.</exception>
    public static Highlights? Create(RqlQuery query, QueryCompiler compiler, IndexDefinition definition, IndexSchema schema, Query where)
    {
        if (query.Highlights.Count == 0)
            return null;
        var fields = new List<Field>(query.Highlights.Count);
        foreach (var highlight in query.Highlights)
        {
            var length = Positive(compiler.Resolve(highlight.FragmentLength), "fragment length", highlight.FragmentLength.Position);
            var count = Positive(compiler.Resolve(highlight.FragmentCount), "fragment count", highlight.FragmentCount.Position);
            var (pre, post) = Tags(highlight, compiler.Parameters);
            var indexField = compiler.SearchField(highlight.Field);
            var path = definition.Fields.TryGetValue(indexField, out var defined) ? defined.Path : highlight.Field.Path!;
            fields.Add(new Field(highlight.Field.Name, path, HighlightedTerms.Of(where, indexField, schema), length, count, pre, post));
        }
        return new Highlights(fields);
    }

    /// <summary>Names every highlighted field in <paramref name="result"/>, so a field without fragments still shows as empty.</summary>
    public void Declare(QueryResult result)
    {
        foreach (var field in _fields)
            result.Highlight(field.Name);
    }

    /// <summary>Adds the fragments of a result (a document with <paramref name="id"/>) to <paramref name="result"/>.</summary>
    public void Add(string id, ReadOnlySpan<byte> json, QueryResult result)
    {
        using var document = JsonDocument.Parse(json.ToArray());
        var fragments = new List<(string Text, int Score, int Matches, int Order)>();
        foreach (var field in _fields)
        {
            var byId = result.Highlight(field.Name);
            if (field.Terms.IsEmpty)
                continue;
            fragments.Clear();
            foreach (var value in field.Path.Values(document.RootElement))
            {
                if (value.ValueKind == JsonValueKind.String && value.GetString() is { Length: > 0 } text)
                    FragmentHighlighter.Highlight(text, field.Terms, field.FragmentLength, field.PreTags, field.PostTags, fragments);
            }
            if (fragments.Count == 0)
                continue;
            FragmentHighlighter.KeepBest(fragments, field.FragmentCount);
            var texts = new string[fragments.Count];
            for (var i = 0; i < texts.Length; i++)
                texts[i] = fragments[i].Text;
            byId[id] = texts;
        }
    }

    private static int Positive(FieldValue value, string what, int position) =>
        value.Type == FieldValueType.Long && value.Long is > 0 and <= int.MaxValue
            ? (int)value.Long
            : throw new RqlParseException($"highlight() takes a {what} that is a whole number above 0, not {value}", position);

    /// <summary>The options' <c>PreTags</c> and <c>PostTags</c> (arrays of strings, as many of each), or the default tags.</summary>
    private static (List<string> Pre, List<string> Post) Tags(RqlHighlight highlight, JsonElement? parameters)
    {
        if (highlight.Options is not RqlParameter parameter)
            return ([DefaultPreTag], [DefaultPostTag]);
        if (parameters is not { ValueKind: JsonValueKind.Object } all || !all.TryGetProperty(parameter.Name, out var options))
            throw new QueryException($"The query has no parameter '{parameter.Name}'.");
        if (options.ValueKind != JsonValueKind.Object)
            throw new RqlParseException($"highlight()'s options are an object like {{\"PreTags\":[\"<em>\"],\"PostTags\":[\"</em>\"]}}", parameter.Position);
        var pre = Strings(options, "PreTags", DefaultPreTag, parameter.Position);
        var post = Strings(options, "PostTags", DefaultPostTag, parameter.Position);
        if (pre.Count != post.Count)
            throw new RqlParseException("highlight()'s options need as many PostTags as PreTags", parameter.Position);
        return (pre, post);
    }

    private static List<string> Strings(JsonElement options, string name, string fallback, int position)
    {
        if (!options.TryGetProperty(name, out var array) || array.ValueKind == JsonValueKind.Null)
            return [fallback];
        var strings = new List<string>();
        if (array.ValueKind == JsonValueKind.Array)
        {
            foreach (var item in array.EnumerateArray())
            {
                if (item.ValueKind != JsonValueKind.String)
                    break;
                strings.Add(item.GetString()!);
            }
        }
        if (strings.Count == 0 || array.ValueKind != JsonValueKind.Array || strings.Count != array.GetArrayLength())
            throw new RqlParseException($"highlight()'s {name} is an array of one or more strings", position);
        return strings;
    }

    private sealed record Field(string Name, FieldPath Path, HighlightedTerms Terms, int FragmentLength, int FragmentCount, List<string> PreTags, List<string> PostTags);
}
