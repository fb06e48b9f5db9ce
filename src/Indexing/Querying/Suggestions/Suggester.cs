using System.Buffers;
using System.Text;
using System.Text.Json;
using Folio.Indexing.Engines;
using Folio.Indexing.Rql;
using Folio.Indexing.Search;

namespace Folio.Indexing.Querying.Suggestions;

/// <summary>
/// Answers <c>select suggest(field, word, $options) [as name], …</c>: for each, the field's terms most like the word
/// (or words) asked about, as one result <c>{"Name": name, "Suggestions": [term, …]}</c> in the order the query
/// names them. A single word is ranked by <see cref="SuggestionWalker"/>; several words (an array parameter) are
/// each suggested without popularity, and their suggestions joined, first word first, up to the page size, as the
/// seeds' system answers them. A word is measured against the terms as written, and recognized among them (the word
/// itself is never suggested) as the field normalizes it.
/// </summary>
internal static class Suggester
{
    public static void Suggest(RqlQuery query, QueryCompiler compiler, IndexSchema schema, IEngineSearcher searcher, QueryResult result)
    {
        var similarity = new StringSimilarity();
        var buffer = new ArrayBufferWriter<byte>();
        foreach (var suggestion in query.Suggestions)
        {
            var field = compiler.IndexField(suggestion.Field, numeric: false);
            var kind = schema.Get(field).Kind;
            if (kind is not (FieldKind.Exact or FieldKind.FullText))
                throw new QueryException($"suggest() offers a field's text terms; '{suggestion.Field.Name}' holds {kind.ToString().ToLowerInvariant()} values.");
            var options = OptionsOf(suggestion, compiler);
            var words = WordsOf(suggestion, compiler);
            List<string> suggestions;
            if (words.Count == 1)
            {
                suggestions = SuggestWord(searcher, schema, field, words[0], options, similarity);
            }
            else
            {
                suggestions = [];
                var seen = new HashSet<string>(StringComparer.Ordinal);
                var single = options with { SortMode = SuggestionSortMode.None };
                foreach (var word in words)
                {
                    foreach (var term in SuggestWord(searcher, schema, field, word, single, similarity))
                    {
                        if (suggestions.Count < options.PageSize && seen.Add(term))
                            suggestions.Add(term);
                    }
                }
            }
            buffer.ResetWrittenCount();
            using (var writer = new Utf8JsonWriter(buffer))
            {
                writer.WriteStartObject();
                writer.WriteString("Name"u8, suggestion.Name);
                writer.WriteStartArray("Suggestions"u8);
                foreach (var term in suggestions)
                    writer.WriteStringValue(term);
                writer.WriteEndArray();
                writer.WriteEndObject();
            }
            result.Results.Add(buffer.WrittenSpan);
        }
        result.TotalResults = query.Suggestions.Count;
    }

    private static List<string> SuggestWord(IEngineSearcher searcher, IndexSchema schema, string field, string word, SuggestionOptions options, StringSimilarity similarity)
    {
        var normalized = Encoding.UTF8.GetString(FieldTerms.NormalizedText(schema, field, word));
        if (normalized.Length == 0)
            return [];
        var walker = new SuggestionWalker(word, normalized, options, similarity);
        searcher.WalkTerms(field, walker);
        return walker.Suggestions();
    }

    private static List<string> WordsOf(RqlSuggestion suggestion, QueryCompiler compiler)
    {
        var words = new List<string>();
        foreach (var value in ParameterValues.ResolveAll([suggestion.Words], compiler.Parameters))
        {
            if (value.Type != FieldValueType.String || string.IsNullOrWhiteSpace(value.Text))
                throw new QueryException($"suggest() on '{suggestion.Field.Name}' needs a word or an array of words, not {value}.");
            words.Add(value.Text!);
        }
        if (words.Count == 0)
            throw new QueryException($"suggest() on '{suggestion.Field.Name}' needs at least one word.");
        return words;
    }

    private static SuggestionOptions OptionsOf(RqlSuggestion suggestion, QueryCompiler compiler)
    {
        var what = $"suggest() on '{suggestion.Field.Name}'";
        switch (suggestion.Options)
        {
            case null:
                return SuggestionOptions.Default;
            case RqlParameter parameter:
                if (compiler.Parameters is not { ValueKind: JsonValueKind.Object } bag || !bag.TryGetProperty(parameter.Name, out var json))
                    throw new QueryException($"The query uses ${parameter.Name}, but QueryParameters has no '{parameter.Name}'.");
                return SuggestionOptions.Parse(json, what);
            default:
                throw new QueryException($"The options of {what} must be a $parameter holding an object.");
        }
    }
}
