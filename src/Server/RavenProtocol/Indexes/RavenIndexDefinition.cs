using System.Text.Json;
using Folio.Indexing.Analysis;
using Folio.Indexing.Definitions;
using Folio.Indexing.Spatial;

namespace Folio.Server.RavenProtocol.Indexes;

/// <summary>Turns one index definition of the seeds' system into Folio's, or says why it cannot.</summary>
public static class RavenIndexDefinition
{
    /// <summary>Translates <paramref name="json"/>.</summary>
    /// <param name="json">One element of the request's <c>Indexes</c>.</param>
    /// <returns>Folio's definition.</returns>
    /// <exception cref="IndexDefinitionException">The definition is malformed or not translatable.</exception>
    public static IndexDefinition Translate(JsonElement json)
    {
        if (json.ValueKind != JsonValueKind.Object)
            throw new IndexDefinitionException("An index definition must be a JSON object.");
        string name = json.TryGetProperty("Name", out JsonElement n) && n.ValueKind == JsonValueKind.String && n.GetString() is { Length: > 0 } text
            ? text
            : throw new IndexDefinitionException("An index definition needs a \"Name\".");
        string? reduce = json.TryGetProperty("Reduce", out JsonElement r) && r.ValueKind == JsonValueKind.String && !string.IsNullOrWhiteSpace(r.GetString()) ? r.GetString() : null;
        if (!json.TryGetProperty("Maps", out JsonElement maps) || maps.ValueKind != JsonValueKind.Array || maps.GetArrayLength() == 0)
            throw new IndexDefinitionException($"'{name}': \"Maps\" must be a non-empty array of map sources.");

        if (JavaScriptIndexDefinition.IsJavaScript(maps))
        {
            try
            {
                return Declarative(json, name, reduce, maps);
            }
            catch (IndexDefinitionException)
            {
                // What the paths cannot say, the map itself runs for (each document through Jint).
                return JavaScriptIndexDefinition.Build(name, json, maps, reduce);
            }
        }

        return Declarative(json, name, reduce, maps);
    }

    // The maps as paths into the documents (MapTranslator) and the reduce as groups and aggregations (ReduceTranslator).
    private static IndexDefinition Declarative(JsonElement json, string name, string? reduce, JsonElement maps)
    {
        var collections = new List<string>();
        var paths = new Dictionary<string, string>(StringComparer.Ordinal);
        var constants = new Dictionary<string, string>(StringComparer.Ordinal);
        var spatial = new Dictionary<string, SpatialSource>(StringComparer.Ordinal);
        foreach (JsonElement map in maps.EnumerateArray())
        {
            if (map.ValueKind != JsonValueKind.String)
                throw new IndexDefinitionException($"'{name}': each map must be a string.");
            MapTranslation translated = MapTranslator.Translate(map.GetString()!);
            if (!collections.Contains(translated.Collection, StringComparer.OrdinalIgnoreCase))
                collections.Add(translated.Collection);
            foreach ((string field, string path) in translated.Fields)
            {
                if (paths.TryGetValue(field, out string? existing) && existing != path)
                    throw new IndexDefinitionException($"'{name}': the maps give field '{field}' different paths ('{existing}', '{path}'); Folio's multi-collection indexes take each field from one path.");
                paths[field] = path;
            }

            foreach ((string field, SpatialSource source) in translated.Spatial)
            {
                if ((spatial.TryGetValue(field, out SpatialSource? existing) && !existing.SameAs(source)) || paths.ContainsKey(field))
                    throw new IndexDefinitionException($"'{name}': the maps give field '{field}' different sources; Folio's multi-collection indexes take each field from one path.");
                spatial[field] = source;
            }

            foreach ((string field, string literal) in translated.Constants)
            {
                if (reduce is null)
                    throw new IndexDefinitionException($"'{name}': {MapTranslator.Untranslatable(map.GetString()!, literal).Message}");
                if (constants.TryGetValue(field, out string? existing) && existing != literal)
                    throw new IndexDefinitionException($"'{name}': the maps give field '{field}' different constants ('{existing}', '{literal}').");
                constants[field] = literal;
            }
        }

        if (reduce is not null && spatial.Count > 0)
            throw new IndexDefinitionException($"'{name}': Folio's map/reduce indexes have no spatial fields ('{spatial.Keys.First()}').");
        if (reduce is not null)
        {
            try
            {
                return new IndexDefinition(name, collections, ReduceTranslator.Translate(reduce, paths, constants), OutputCollectionOf(json));
            }
            catch (IndexDefinitionException e)
            {
                throw new IndexDefinitionException($"'{name}': {e.Message}");
            }
        }

        JsonElement options = json.TryGetProperty("Fields", out JsonElement f) && f.ValueKind == JsonValueKind.Object ? f : default;
        var fields = new Dictionary<string, IndexFieldDefinition>(StringComparer.Ordinal);
        foreach ((string field, string path) in paths)
        {
            FieldPath fieldPath;
            try
            {
                fieldPath = FieldPath.Parse(path);
            }
            catch (FieldPathException e)
            {
                throw new IndexDefinitionException($"'{name}': field '{field}' has a path Folio cannot read: {e.Message}");
            }

            if (FieldOf(options, field, fieldPath, search: false) is { } definition)
                fields[field] = definition;
        }

        foreach ((string field, SpatialSource source) in spatial)
        {
            if (paths.ContainsKey(field))
                throw new IndexDefinitionException($"'{name}': the maps give field '{field}' different sources; Folio's multi-collection indexes take each field from one path.");
            fields[field] = IndexFieldDefinition.ForSpatial(source);
        }

        return new IndexDefinition(name, collections, fields);
    }

    /// <summary>The collection a map/reduce definition writes its results to (<c>OutputReduceToCollection</c>), or null.</summary>
    internal static string? OutputCollectionOf(JsonElement json) =>
        json.TryGetProperty("OutputReduceToCollection", out JsonElement output) && output.ValueKind == JsonValueKind.String && !string.IsNullOrWhiteSpace(output.GetString())
            ? output.GetString()
            : null;

    /// <summary>
    /// The field <paramref name="field"/> reading <paramref name="path"/> as the definition's <c>Fields</c> options
    /// (<paramref name="options"/>) ask: full text for <c>"Indexing":"Search"</c> (or an analyzer, or <paramref name="search"/>),
    /// case-sensitive for <c>"Exact"</c>, none for <c>"No"</c>, else exact with a numeric twin.
    /// </summary>
    internal static IndexFieldDefinition? FieldOf(JsonElement options, string field, FieldPath path, bool search)
    {
        string indexing = options.ValueKind == JsonValueKind.Object && options.TryGetProperty(field, out JsonElement o) && o.ValueKind == JsonValueKind.Object
            && o.TryGetProperty("Indexing", out JsonElement i) && i.ValueKind == JsonValueKind.String ? i.GetString()! : "Default";
        if (indexing == "No")
            return null;
        string? analyzer = indexing is "Search" or "Default" ? AnalyzerOf(options, field) : null;
        return indexing == "Search" || analyzer is not null || (search && indexing == "Default")
            ? new IndexFieldDefinition(path, IndexFieldType.String, Search: true, Analyzer: analyzer)
            : new IndexFieldDefinition(path, IndexFieldType.Auto, CaseSensitive: indexing == "Exact");
    }

    /// <summary>
    /// The Folio analyzer a field's <c>"Analyzer"</c> names (the seeds' clients send Lucene's class names, with or without
    /// the namespace: <c>Lucene.Net.Analysis.Standard.StandardAnalyzer</c> is Folio's <c>Standard</c>); null when it names
    /// none Folio has. As in the seeds' system, a field given an analyzer is analyzed (full text) unless it says otherwise.
    /// </summary>
    private static string? AnalyzerOf(JsonElement options, string field)
    {
        if (options.ValueKind != JsonValueKind.Object || !options.TryGetProperty(field, out JsonElement o) || o.ValueKind != JsonValueKind.Object
            || !o.TryGetProperty("Analyzer", out JsonElement a) || a.ValueKind != JsonValueKind.String || a.GetString() is not { Length: > 0 } written)
            return null;
        string name = written[(written.LastIndexOf('.') + 1)..];
        if (name.EndsWith("Analyzer", StringComparison.Ordinal) && name.Length > "Analyzer".Length)
            name = name[..^"Analyzer".Length];
        return NamedAnalyzers.TryCanonical(name, out string canonical) && canonical != NamedAnalyzers.Exact ? canonical : null;
    }
}
