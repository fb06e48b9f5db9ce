using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Queries;
using Folio.Indexing.Rql;

namespace Folio.Indexing.Querying;

// morelikethis() and intersect(): the where clause's functions over a source document or several conditions.
internal sealed partial class QueryCompiler
{
    /// <summary>
    /// <c>morelikethis()</c> on a static index: the fields the options name (full-text fields by their analyzed terms,
    /// exact ones by their values, a term each), or without names its full-text fields (its exact text fields when it
    /// has none); the source as a condition on the index (its first match) or as an artificial document of texts by field.
    /// </summary>
    private MoreLikeThisQuery MoreLikeThis(RqlMoreLikeThis moreLikeThis)
    {
        if (definition.IsAuto || definition.Reduce is not null)
            throw NotOnAutoIndex(moreLikeThis);
        var (options, named) = moreLikeThis.Options is { } written ? MoreLikeThisOptionsJson.Parse(Json(written, "the options of morelikethis()")) : (new MoreLikeThisOptions(), null);
        var fields = new List<string>();
        if (named is not null)
        {
            foreach (var name in named)
            {
                if (!definition.Fields.TryGetValue(name, out var field) || !HasTextTerms(field))
                    throw new QueryException($"morelikethis() compares fields of text terms; '{name}' is not one of index '{definition.Name}' (a full-text or exact text field).");
                if (!fields.Contains(name))
                    fields.Add(name);
            }
        }
        else
        {
            foreach (var (name, field) in definition.Fields)
            {
                if (field.Search)
                    fields.Add(name);
            }
            if (fields.Count == 0)
            {
                foreach (var (name, field) in definition.Fields)
                {
                    if (HasTextTerms(field))
                        fields.Add(name);
                }
            }
            if (fields.Count == 0)
                throw new RqlParseException($"morelikethis() compares fields of text terms, and index '{definition.Name}' has none (a full-text or exact text field)", moreLikeThis.Position);
        }
        if (moreLikeThis.Source is { } source)
            return new MoreLikeThisQuery(CompileExpression(source), [], fields, options, IndexDefinition.IdField);
        var document = Json(moreLikeThis.Document!, "the document of morelikethis()");
        if (document.ValueKind != JsonValueKind.Object)
            throw new QueryException("The document of morelikethis() must be a JSON object of texts by field, as in {\"Body\":\"some text\"}.");
        var texts = new List<KeyValuePair<string, string>>();
        foreach (var property in document.EnumerateObject())
        {
            // The artificial document's other properties have no terms in the compared fields.
            if (!fields.Contains(property.Name))
                continue;
            AddTexts(property.Name, property.Value, texts);
        }
        return new MoreLikeThisQuery(null, texts, fields, options);
    }

    // Numeric and spatial fields keep no text terms to compare.
    private static bool HasTextTerms(IndexFieldDefinition field) =>
        field.Search || (field.Spatial is null && field.Type is IndexFieldType.String or IndexFieldType.Auto);

    private static RqlParseException NotOnAutoIndex(RqlMoreLikeThis moreLikeThis) =>
        new("morelikethis() needs a static map index with full-text fields (\"Search\": true), queried with from index '…'", moreLikeThis.Position);

    private static void AddTexts(string field, JsonElement value, List<KeyValuePair<string, string>> texts)
    {
        switch (value.ValueKind)
        {
            case JsonValueKind.String:
                texts.Add(new(field, value.GetString()!));
                break;
            case JsonValueKind.Array:
                foreach (var item in value.EnumerateArray())
                    AddTexts(field, item, texts);
                break;
            case JsonValueKind.Number or JsonValueKind.True or JsonValueKind.False:
                texts.Add(new(field, value.GetRawText()));
                break;
        }
    }

    /// <summary>A JSON value written as a string literal holding JSON, or a <c>$parameter</c> holding JSON (or a string of it).</summary>
    private JsonElement Json(RqlValue value, string what)
    {
        string text;
        if (value is RqlParameter parameter)
        {
            if (parameters is not { ValueKind: JsonValueKind.Object } bag || !bag.TryGetProperty(parameter.Name, out var json))
                throw new QueryException($"The query uses ${parameter.Name}, but QueryParameters has no '{parameter.Name}'.");
            if (json.ValueKind != JsonValueKind.String)
                return json;
            text = json.GetString()!;
        }
        else if (value is RqlLiteral { Value: string literal })
        {
            text = literal;
        }
        else
        {
            throw new RqlParseException($"{what} must be a JSON object in a string or a $parameter", value.Position);
        }
        try
        {
            using var parsed = JsonDocument.Parse(text);
            return parsed.RootElement.Clone();
        }
        catch (JsonException e)
        {
            throw new RqlParseException($"{what} is not valid JSON: {e.Message}", value.Position);
        }
    }

    /// <summary>
    /// <c>intersect(q1, q2, …)</c>: the documents each part matches within one of their entries. On an index of one entry per
    /// document (every auto index and most static ones) that entry matches every part exactly when it matches their
    /// conjunction; a fan-out index (<see cref="IndexDefinition.ForEach"/>) intersects the documents of the parts.
    /// </summary>
    private Query Intersect(RqlIntersect intersect)
    {
        var parts = new List<Query>(intersect.Parts.Count);
        foreach (var part in intersect.Parts)
            parts.Add(CompileExpression(part));
        return !definition.IsFanOut ? new AndQuery(parts, []) : new IntersectQuery(parts, IndexDefinition.IdField);
    }
}
